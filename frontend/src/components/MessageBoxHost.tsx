import { observer } from 'mobx-react-lite';
import { useServices as useStores } from '../kernel/storeContext';
import { Modal } from './Modal';

/** Renders the oldest pending confirm/alert of the UiStore; only its buttons settle it. */
export const MessageBoxHost = observer(function MessageBoxHost() {
  const { ui } = useStores();
  const box = ui.messageBoxes[0];
  if (!box) return null;
  return (
    <Modal
      title={box.title}
      testId="message-box"
      width={380}
      className="message-box"
      footer={
        <>
          {box.showCancel && (
            <button type="button" className="btn btn--ghost" data-testid="message-box-cancel" onClick={() => box.resolve(false)}>
              {box.cancelText}
            </button>
          )}
          <button type="button" className="btn btn--primary" data-testid="message-box-confirm" onClick={() => box.resolve(true)}>
            {box.confirmText}
          </button>
        </>
      }
    >
      <p className="message-box__text" data-testid="message-box-text">
        {box.highlights?.length ? highlighted(box.message, box.highlights) : box.message}
      </p>
      {box.detail && <p className="message-box__detail">{box.detail}</p>}
    </Modal>
  );
});

/** The message with each highlighted part in an <em>, in order of appearance. */
function highlighted(message: string, parts: string[]) {
  const out: (string | JSX.Element)[] = [];
  let rest = message;
  for (const [i, part] of parts.entries()) {
    const at = rest.indexOf(part);
    if (at < 0) continue;
    out.push(rest.slice(0, at), <em key={i}>{part}</em>);
    rest = rest.slice(at + part.length);
  }
  out.push(rest);
  return out;
}
