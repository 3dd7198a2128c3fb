import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Lane } from '../../../api/codes';
import { useStores } from '../stores/context';

/**
 * /help/queue: the admission order between queue lanes (weighted fair queuing with a virtual
 * clock, and its no-starvation bound). The lanes, who joins them and their weights are the
 * server's own (GET /api/japi/yoo/game/queueRules), so this page cannot drift from the queue.
 */
export const QueueRulesPage = observer(function QueueRulesPage() {
  const { queue } = useStores();
  useEffect(() => {
    void queue.loadRules();
  }, [queue]);
  const rules = queue.rules;
  const weight = (lane: number) => rules?.lanes.find((l) => l.isFast === lane)?.weight ?? '-';
  const ultimate = rules?.lanes.filter((l) => l.ultimate) ?? [];
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
            {rules?.lanes.map((l) => (
              <tr key={l.isFast}>
                <td>{l.name}</td>
                <td>{l.who}</td>
                <td data-testid={`lane-weight-${l.isFast}`}>{l.weight}</td>
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
            各通道按权重分配空出的机器：有玩家排队时，每条通道获得的放行次数与其权重成正比。
            {ultimate.map((l) => l.name).join('与')}权重为 {ultimate[0]?.weight ?? '-'}，加入后几乎立即排到队首；VVIP 为 {weight(Lane.VVIP)}，VIP 为{' '}
            {weight(Lane.VIP)}，日间包为 {weight(Lane.DAILY)}，夜间包为 {weight(Lane.NIGHT)}，普通队列为 {weight(Lane.NORMAL)}。
          </li>
          <li>
            排队越久，位置越靠前：每位玩家加入时获得一个固定的排队序号，序号越小越先放行；之后加入的任何玩家，序号都不会小于当前已放行到的位置，因此不会无限插到您前面。
          </li>
          <li>
            同一区服的所有游戏共用该区服的机器，也共用一个队列：您看到的排名是该区服所有排队玩家中排在您前面的人数加一，随时精确（第 1 位即该区服下一台空出的机器归您）。
          </li>
        </ul>
      </section>
      <section className="help__section" data-testid="queue-wait-rules">
        <h2>预计等待时间</h2>
        <p>
          预计等待时间按该区服最近 10 分钟的实际放行速度计算：每 30 秒为一段，只统计有玩家排队的时间（一段中至少 5 秒有人排队才计入），得出每段的放行速度。区间的下限为“排名 ÷ 各段放行速度的中位数”，上限为“排名 ÷ 较慢一成时段的放行速度（第 10 百分位）”，即最近十段中约九段至少这么快。
        </p>
        <p>尚无测量数据时（例如近期无人排队）显示“测算中”，不做估计；若近期有排队却没有放行，只给出下限（“X 分钟以上”）。</p>
      </section>
      <section className="help__section">
        <h2>不会被一直插队</h2>
        <p>
          任何通道都不会被饿死。以普通队列为例：若您加入时前面共有 r 位玩家、其中有 n 位是普通队列的玩家，那么无论之后有多少人加入哪条通道，您最多再等待
          <b data-testid="queue-bound">
            {' '}
            r + {rules?.totalWeight ?? 'W'} × (n + 1){' '}
          </b>
          次放行就会进入游戏（{rules?.totalWeight ?? 'W'} 为所有通道权重之和；以您加入时同通道中排在前面的玩家均未中途退出为准）。按当前的放行速度，这也给出了最长等待时间的上限。
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
});
