import { Link } from 'react-router';
import { LANE_WEIGHTS, TOTAL_WEIGHT, laneName } from '../../../lib/lanes';
import { Lane } from '../../../api/codes';

const ROWS: { lanes: number[]; who: string }[] = [
  { lanes: [Lane.MEMBER], who: '持有速进时长或使用速进卡的玩家' },
  { lanes: [Lane.CARRIER], who: '天翼电竞宽带会员' },
  { lanes: [Lane.VVIP], who: 'VVIP会员' },
  { lanes: [Lane.VIP], who: 'VIP会员' },
  { lanes: [Lane.DAILY], who: '日间畅玩包用户（每日 08:00–24:00）' },
  { lanes: [Lane.NIGHT], who: '夜间畅玩包用户（每日 23:00–次日 07:00）' },
  { lanes: [Lane.NORMAL], who: '其他玩家' },
];

/**
 * /help/queue: the admission order between queue lanes, as `actors/src/lanes.rs` implements it
 * (weighted fair queuing with a virtual clock, and its no-starvation bound).
 */
export function QueueRulesPage() {
  return (
    <div className="page container help" data-testid="queue-rules-page">
      <h1 className="page__title">排队规则</h1>
      <section className="help__section">
        <h2>排队通道</h2>
        <p>开始游戏时，系统按您持有的权益自动为您选择最快的通道（以开始排队时为准，时间按北京时间计算）：</p>
        <table className="help__table">
          <thead>
            <tr>
              <th>通道</th>
              <th>适用玩家</th>
              <th>权重</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map((r) => (
              <tr key={r.lanes[0]}>
                <td>{laneName(r.lanes[0])}</td>
                <td>{r.who}</td>
                <td data-testid={`lane-weight-${r.lanes[0]}`}>{LANE_WEIGHTS[r.lanes[0]]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="help__section">
        <h2>放行顺序</h2>
        <ul>
          <li>每条通道内严格先到先得：同一通道中先开始排队的玩家一定先进入游戏。</li>
          <li>
            各通道按权重分配空出的机器：有玩家排队时，每条通道获得的放行次数与其权重成正比。会员速进与天翼速进通道权重为
            1000，加入后几乎立即排到队首；VVIP 为 20，VIP 为 10，日间包与夜间包为 2，普通队列为 1。
          </li>
          <li>
            排队越久，位置越靠前：每位玩家加入时获得一个固定的排队序号，序号越小越先放行；之后加入的任何玩家，序号都不会小于当前已放行到的位置，因此不会无限插到您前面。
          </li>
          <li>您看到的排名是按当前队列精确计算的名次（第 1 位即下一位进入游戏）。</li>
        </ul>
      </section>
      <section className="help__section">
        <h2>不会被一直插队</h2>
        <p>
          任何通道都不会被饿死。以普通队列为例：若您加入时前面共有 r 位玩家、其中有 n 位是普通队列的玩家，那么无论之后有多少人加入哪条通道，您最多再等待
          <b data-testid="queue-bound">
            {' '}
            r + {TOTAL_WEIGHT} × (n + 1){' '}
          </b>
          次放行就会进入游戏（{TOTAL_WEIGHT} 为所有通道权重之和；以您加入时同通道中排在前面的玩家均未中途退出为准）。按当前的放行速度，这也给出了最长等待时间的上限。
        </p>
        <p>其他通道同理，且权重越高，上限越小。</p>
      </section>
      <p>
        <Link to="/game" className="btn btn--primary">
          返回游戏库
        </Link>
      </p>
    </div>
  );
}
