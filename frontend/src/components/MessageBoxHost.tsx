import { observer } from 'mobx-react-lite';
import { useStores } from '../stores/context';
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
        {box.message}
      </p>
      {box.detail && <p className="message-box__detail">{box.detail}</p>}
    </Modal>
  );
});
