import { observer } from 'mobx-react-lite';
import { useServices as useStores } from '../kernel/storeContext';

const ICONS = { success: '✓', info: 'i', warning: '!', error: '×' } as const;

export const Toasts = observer(function Toasts() {
  const { ui } = useStores();
  return (
    <div className="toasts" aria-live="polite">
      {ui.toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.type}`} role={t.type === 'error' ? 'alert' : 'status'} data-testid={`toast-${t.type}`}>
          <span className="toast__icon">{ICONS[t.type]}</span>
          <span>{t.message}</span>
        </div>
      ))}
    </div>
  );
});
