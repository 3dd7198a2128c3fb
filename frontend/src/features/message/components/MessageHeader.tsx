import { observer } from 'mobx-react-lite';
import { createPortal } from 'react-dom';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { messageStoreOf } from '../stores/messageStore';
import { MessageCentre } from './MessageCentre';
import '../message.css';

/**
 * The header's messages entry (social.md §2.2): a red dot while the unread total is above 0;
 * a click opens the message centre's dialog, or the login dialog for a guest.
 */
const MessageHeader = observer(function MessageHeader() {
  const root = useStores();
  const store = messageStoreOf(root);
  const loggedIn = root.user.isLoggedIn;
  return (
    <div className="msg-entry">
      <button
        type="button"
        className="btn btn--sm btn--ghost msg-entry__button"
        data-testid="header-messages"
        aria-label="消息"
        onClick={() => root.ui.openMessages(loggedIn)}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2zm4 4h4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {loggedIn && store.unreadTotal > 0 && <i className="msg-dot msg-entry__dot" data-testid="header-messages-dot" />}
      </button>
      {/* the header is a containing block of its own: the dialog goes to the page's body */}
      {loggedIn &&
        root.ui.messagesOpen &&
        createPortal(
          <Modal title="消息中心" testId="message-dialog" width={820} onClose={() => root.ui.closeMessages()}>
            <MessageCentre store={store} onLeave={() => root.ui.closeMessages()} />
          </Modal>,
          document.body,
        )}
    </div>
  );
});

export default MessageHeader;
