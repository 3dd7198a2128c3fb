import { GameFloat } from './GameFloat';
import { MissedQueueMessage } from './MissedQueueMessage';
import { NodeDialog } from './NodeDialog';
import { QualityReportDialog } from './QualityReportDialog';
import { QueueDialog } from './QueueDialog';
import { ReadyDialog } from './ReadyDialog';
import { RetentionDialog } from './RetentionDialog';

/** Every game dialog and the float, mounted once by the app shell. */
export function GameOverlays() {
  return (
    <>
      <NodeDialog />
      <QueueDialog />
      <RetentionDialog />
      <ReadyDialog />
      <MissedQueueMessage />
      <GameFloat />
      <QualityReportDialog />
    </>
  );
}
