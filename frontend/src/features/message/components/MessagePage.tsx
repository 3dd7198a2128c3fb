import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useStores } from '../stores/context';
import { messageStoreOf } from '../stores/messageStore';
import { MessageCentre } from './MessageCentre';
import '../message.css';

/** The message centre's page (social.md §2.9): titled 消息中心; guests are sent to /. */
export const MessagePage = observer(function MessagePage() {
  const root = useStores();
  useEffect(() => {
    document.title = '消息中心';
  }, []);
  if (!root.user.ready) return null;
  if (!root.user.isLoggedIn) return <Navigate to="/" replace />;
  return (
    <section className="page msg-page" data-testid="message-page">
      <h1 className="msg-page__title">消息中心</h1>
      <MessageCentre store={messageStoreOf(root)} />
    </section>
  );
});
