import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CentreMessage } from '../../../api/types';
import { cardAction, messageTime } from '../../../lib/messageTime';
import { useStores } from '../stores/context';
import type { MessageStore } from '../stores/messageStore';

/**
 * The message centre (social.md §2.9), the same in the dialog and on the page: the sender tabs
 * (unread dot, name, last title, its time), the list with 'load more' / 'no more' / 'no
 * messages', mark all read, clear all, and the guardian page's link. `onLeave` runs before a
 * link leaves the centre (the dialog closes).
 */
export const MessageCentre = observer(function MessageCentre({ store, onLeave }: { store: MessageStore; onLeave?: () => void }) {
  const root = useStores();
  // the times are read against the clock of the opening (the server's, when it differs)
  const [openedAt] = useState(() => Date.now());
  const now = openedAt + root.game.skewMs;
  useEffect(() => {
    store.enter();
    return () => store.leave();
  }, [store]);

  return (
    <div className="msg-centre" data-testid="message-centre">
      <ul className="msg-centre__tabs" role="tablist">
        <li>
          <button
            type="button"
            role="tab"
            aria-selected={store.sender === null}
            className={`msg-tab${store.sender === null ? ' is-active' : ''}`}
            data-testid="message-tab-all"
            onClick={() => store.selectSender(null)}
          >
            <span className="msg-tab__name">全部消息</span>
          </button>
        </li>
        {store.tabs.map((t) => (
          <li key={t.sender}>
            <button
              type="button"
              role="tab"
              aria-selected={store.sender === t.sender}
              className={`msg-tab${store.sender === t.sender ? ' is-active' : ''}`}
              data-testid={`message-tab-${t.sender}`}
              onClick={() => store.selectSender(t.sender)}
            >
              <span className="msg-tab__name">
                {t.name}
                {t.unReadCount > 0 && <i className="msg-dot" data-testid={`message-tab-dot-${t.sender}`} aria-label="未读" />}
              </span>
              {t.lastMsgTitle && (
                <span className="msg-tab__last">
                  <span className="msg-tab__title">{t.lastMsgTitle}</span>
                  <span className="msg-tab__time">{messageTime(t.sendTime, now)}</span>
                </span>
              )}
            </button>
          </li>
        ))}
        <li className="msg-centre__guardian">
          <Link to="/children" data-testid="message-children" onClick={onLeave}>
            家长监护
          </Link>
        </li>
      </ul>
      <div className="msg-centre__main">
        <div className="msg-centre__actions">
          <button type="button" className="btn btn--ghost btn--sm" data-testid="message-read-all" onClick={() => void store.markAllRead()}>
            全部已读
          </button>
          <button type="button" className="btn btn--ghost btn--sm" data-testid="message-clear" onClick={() => void store.clearAll()}>
            清空消息
          </button>
        </div>
        <ul className="msg-list" data-testid="message-list">
          {store.list.map((m) => (
            <MessageItem key={m.id} m={m} now={now} onLeave={onLeave} />
          ))}
        </ul>
        <div className="msg-list__foot">
          {store.loaded && store.list.length === 0 ? (
            <div className="empty empty--small" data-testid="message-empty">
              暂无消息
            </div>
          ) : store.hasMore ? (
            <button type="button" className="btn btn--ghost btn--sm" data-testid="message-more" disabled={store.loading} onClick={() => void store.loadMore()}>
              加载更多
            </button>
          ) : store.loaded ? (
            <span className="msg-list__end" data-testid="message-no-more">
              没有更多了
            </span>
          ) : null}
        </div>
      </div>
    </div>
  );
});

function MessageItem({ m, now, onLeave }: { m: CentreMessage; now: number; onLeave?: () => void }) {
  const root = useStores();
  const navigate = useNavigate();
  const action = cardAction(m.msgTepParam);
  const go = (to: string) => {
    onLeave?.();
    if (/^https?:\/\//.test(to)) window.open(to, '_blank', 'noopener');
    else navigate(to);
  };
  const goNow = () => {
    if (action === 'backpack') go('/user/card/card');
    else {
      onLeave?.();
      root.openPurchase('time');
    }
  };
  return (
    <li className={`msg-item${m.read ? '' : ' is-unread'}`} data-testid="message-item" data-read={m.read}>
      {m.image && <img className="msg-item__image" src={m.image} alt="" />}
      <div className="msg-item__head">
        <span className="msg-item__title">{m.name}</span>
        <span className="msg-item__time">{messageTime(m.sendTime, now)}</span>
      </div>
      <p className="msg-item__content">{m.content}</p>
      {(m.link || action) && (
        <div className="msg-item__links">
          {m.link && (
            <button type="button" className="msg-item__link" data-testid="message-detail" onClick={() => go(m.link)}>
              查看详情 &gt;
            </button>
          )}
          {action && (
            <button type="button" className="msg-item__link" data-testid="message-go" onClick={goNow}>
              立即前往 &gt;
            </button>
          )}
        </div>
      )}
    </li>
  );
}
