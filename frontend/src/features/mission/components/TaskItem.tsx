import { observer } from 'mobx-react-lite';
import { useNavigate } from 'react-router';
import type { MissionTask } from '../../../api/types';
import { progressText, taskButton, taskMinutes } from '../../../lib/mission';
import type { MissionStore } from '../stores/missionStore';

/** A task item (commerce.md §2.12): icon, name, +N分钟, rewards, description, progress, button. */
export const TaskItem = observer(function TaskItem({ task, store, compact }: { task: MissionTask; store: MissionStore; compact?: boolean }) {
  const navigate = useNavigate();
  const b = taskButton(task.status);
  const busy = store.claiming !== null;
  return (
    <li className={`task-item${compact ? ' task-item--compact' : ''}`} data-testid={`task-${task.taskCode}`} data-status={task.status}>
      {task.icon ? (
        <img className="task-item__icon" src={task.icon} alt="" />
      ) : (
        <span className="task-item__icon task-item__icon--badge" aria-hidden="true">
          {task.name.slice(0, 1)}
        </span>
      )}
      <div className="task-item__body">
        <div className="task-item__name">
          {task.name}
          <span className="task-item__minutes">+{taskMinutes(task)}分钟游戏时长</span>
        </div>
        {!compact && (
          <ul className="task-item__rewards">
            {task.rewards.map((r, i) => {
              const c = store.configOf(r.key);
              return (
                <li key={i} className="task-reward" title={c?.desc}>
                  {c?.icon && <img src={c.icon} alt="" />}
                  <span>{c?.title ?? r.key}</span> <span>{r.valueTxt}</span>
                </li>
              );
            })}
          </ul>
        )}
        <div className="task-item__desc">{task.desc}</div>
        <div className="task-item__progress" data-testid="task-progress">
          进度 {progressText(task)}
        </div>
      </div>
      <button
        type="button"
        className={`btn btn--sm ${task.status === 1 ? 'btn--primary' : 'btn--ghost'}`}
        data-testid="task-button"
        disabled={b.disabled || (task.status === 1 && busy)}
        onClick={() => store.act(task, (to) => void navigate(to))}
      >
        {store.claiming === task.taskCode ? '领取中…' : b.label}
      </button>
    </li>
  );
});
