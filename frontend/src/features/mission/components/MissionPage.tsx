import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useStores } from '../stores/context';
import { missionStoreOf } from '../stores/missionStore';
import { TaskItem } from './TaskItem';
import '../mission.css';

/** /user/mission: every task (commerce.md §2.1, §2.12). */
export const MissionPage = observer(function MissionPage() {
  const root = useStores();
  const store = missionStoreOf(root);
  const loggedIn = root.user.isLoggedIn;
  useEffect(() => {
    if (loggedIn) void store.loadTasks();
  }, [loggedIn, store]);

  if (!root.user.ready) return null;
  if (!loggedIn) {
    return (
      <div className="page mission-page">
        <p>登录后即可做任务、领奖励</p>
        <button type="button" className="btn btn--primary" onClick={() => root.ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  const daily = store.shown.filter((t) => t.taskClass === 1);
  const once = store.shown.filter((t) => t.taskClass !== 1);
  return (
    <div className="page mission-page" data-testid="mission-page">
      <h1 className="mission-page__title">做任务，领奖励</h1>
      <h2 className="mission-page__section">每日任务</h2>
      <ul className="task-list">
        {daily.map((t) => (
          <TaskItem key={t.taskCode} task={t} store={store} />
        ))}
      </ul>
      <h2 className="mission-page__section">新手任务</h2>
      <ul className="task-list">
        {once.map((t) => (
          <TaskItem key={t.taskCode} task={t} store={store} />
        ))}
      </ul>
    </div>
  );
});
