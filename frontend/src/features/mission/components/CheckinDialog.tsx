import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { isDouble } from '../../../lib/mission';
import type { MissionStore } from '../stores/missionStore';

/** The check-in dialog (commerce.md §2.11): up to 10 day cells on a 496 px track. */
export const CheckinDialog = observer(function CheckinDialog({ store }: { store: MissionStore }) {
  const info = store.info;
  return (
    <Modal title={info?.title ?? '每日签到'} testId="checkin-dialog" width={560} onClose={() => store.closeCheckin()}
      headerActions={
        <button type="button" className="checkin__rules-link" data-testid="checkin-rules" onClick={() => void store.loadRules()}>
          规则
        </button>
      }
      footer={
        <button
          type="button"
          className="btn btn--primary btn--block"
          data-testid="checkin-submit"
          disabled={!info || info.sign_in_today || store.signing}
          onClick={() => void store.checkIn()}
        >
          {info?.sign_in_today ? '今日已签到' : '立即签到'}
        </button>
      }
    >
      {info && (
        <>
          <p className="checkin__sub">{info.sub_title}</p>
          <p className="checkin__count" data-testid="checkin-count">
            已连续签到 <strong>{info.count}</strong> 天
          </p>
          <ol className="checkin__track" style={{ width: 496 }}>
            {info.sign_items.slice(0, 10).map((c) => {
              const double = !c.sign && isDouble(c.reward.play_time, c.reward.origin_play_time);
              return (
                <li
                  key={c.count}
                  className={`checkin__cell${c.sign ? ' is-signed' : ''}${c.is_today ? ' is-today' : ''}`}
                  data-testid={`checkin-cell-${c.count}`}
                  data-signed={c.sign}
                >
                  <span className="checkin__day">{c.is_today ? '今天' : `第${c.count}天`}</span>
                  <span className="checkin__reward">+{double ? c.reward.origin_play_time : c.reward.play_time}分钟</span>
                  {double && <span className="checkin-double">翻倍</span>}
                </li>
              );
            })}
          </ol>
        </>
      )}
      {store.rules !== null && (
        <div className="checkin__rules" data-testid="checkin-rules-text">
          <pre>{store.rules}</pre>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => store.closeRules()}>
            知道了
          </button>
        </div>
      )}
    </Modal>
  );
});
