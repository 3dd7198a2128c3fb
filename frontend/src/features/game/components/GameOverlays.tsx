import { GameFloat } from './GameFloat';
import { GameTipDialog } from './GameTipDialog';
import { MissedQueueMessage } from './MissedQueueMessage';
import { NodeDialog } from './NodeDialog';
import { QualityReportDialog } from './QualityReportDialog';
import { QueueDialog } from './QueueDialog';
import { ReadyDialog } from './ReadyDialog';
import { RetentionDialog } from './RetentionDialog';
import { StartGuideDialog } from './StartGuideDialog';
import { UnsupportedGameDialog } from './UnsupportedGameDialog';

/** Every game dialog and the float, mounted once by the app shell. */
export function GameOverlays() {
  return (
    <>
      <StartGuideDialog />
      <NodeDialog />
      <GameTipDialog />
      <UnsupportedGameDialog />
      <QueueDialog />
      <RetentionDialog />
      <ReadyDialog />
      <MissedQueueMessage />
      <GameFloat />
      <QualityReportDialog />
    </>
  );
}
