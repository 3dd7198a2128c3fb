import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { useStores } from '../stores/context';
import { missionStoreOf } from '../stores/missionStore';
import { CheckinDialog } from './CheckinDialog';
import { TaskItem } from './TaskItem';
import '../mission.css';

/** The header's check-in and task entries, the task popover and the check-in dialog. */
const MissionHeader = observer(function MissionHeader() {
  const root = useStores();
  const store = missionStoreOf(root);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const loggedIn = root.user.isLoggedIn;

  useEffect(() => {
    if (open && loggedIn) void store.loadTasks();
  }, [open, loggedIn, store]);

  const toggle = () => {
    if (!loggedIn) {
      root.ui.openLogin();
      return;
    }
    setOpen(true);
  };

  return (
    <div className="mission-entry" ref={ref} onMouseLeave={() => setOpen(false)}>
      <button type="button" className="btn btn--sm btn--ghost" data-testid="header-checkin" onClick={() => store.openCheckin()}>
        签到
      </button>
      <button
        type="button"
        className="btn btn--sm btn--ghost"
        data-testid="header-missions"
        aria-expanded={open}
        onClick={toggle}
        onMouseEnter={() => loggedIn && setOpen(true)}
      >
        任务
      </button>
      {open && loggedIn && (
        <div className="popover mission-popover" data-testid="mission-popover">
          <div className="mission-popover__title">做任务，领奖励</div>
          <ul className="task-list">
            {store.shown.map((t) => (
              <TaskItem key={t.taskCode} task={t} store={store} compact />
            ))}
          </ul>
          <Link to="/user/mission" className="mission-popover__more" data-testid="mission-all" onClick={() => setOpen(false)}>
            查看全部任务 &gt;
          </Link>
        </div>
      )}
      {/* the header is a containing block of its own: the dialog goes to the page's body */}
      {store.checkinOpen && createPortal(<CheckinDialog store={store} />, document.body)}
    </div>
  );
});

export default MissionHeader;
