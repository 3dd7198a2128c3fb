import { formatHMS } from '../../../lib/time';
import type { QualitySummary } from '../../../stream/stats';

/** The figures of one quality report, as the report dialog and the history show them. */
export function QualityRows({ summary }: { summary: QualitySummary }) {
  return (
    <dl className="quality" data-testid="quality-rows">
      <div>
        <dt>游戏时长</dt>
        <dd data-testid="quality-played">{formatHMS(summary.playedSecs)}</dd>
      </div>
      <div>
        <dt>延迟（中位数）</dt>
        <dd data-testid="quality-p50">{Math.round(summary.latencyP50Ms)} ms</dd>
      </div>
      <div>
        <dt>延迟（95%）</dt>
        <dd data-testid="quality-p95">{Math.round(summary.latencyP95Ms)} ms</dd>
      </div>
      <div>
        <dt>平均帧率</dt>
        <dd data-testid="quality-fps">{summary.fps.toFixed(1)} fps</dd>
      </div>
      <div>
        <dt>丢帧</dt>
        <dd data-testid="quality-drops">{summary.drops}</dd>
      </div>
      <div>
        <dt>重连次数</dt>
        <dd data-testid="quality-reconnects">{summary.reconnects}</dd>
      </div>
    </dl>
  );
}
