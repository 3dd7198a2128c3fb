import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { endReasonText } from '../../../lib/endReason';
import { useStores } from '../stores/context';
import { QualityRows } from './QualityRows';

/** 本次游戏报告: the quality report of the game that just ended, until the player closes it. */
export const QualityReportDialog = observer(function QualityReportDialog() {
  const { game } = useStores();
  const r = game.qualityReport;
  if (!r) return null;
  return (
    <Modal
      title="本次游戏报告"
      testId="quality-report"
      width={400}
      onClose={() => game.dismissQualityReport()}
      footer={
        <button type="button" className="btn btn--primary" data-testid="quality-report-ok" onClick={() => game.dismissQualityReport()}>
          知道了
        </button>
      }
    >
      {r.gameName && <p className="quality__game">《{r.gameName}》</p>}
      {r.endReason && r.endReason !== 'over' && (
        // ended by something other than the player's own exit: say what
        <p className="quality__end" data-testid="quality-end">
          游戏已结束：{endReasonText(r.endReason)}
        </p>
      )}
      <QualityRows summary={r.summary} />
    </Modal>
  );
});
