import { GameFloat } from './GameFloat';
import { MissedQueueMessage } from './MissedQueueMessage';
import { NodeDialog } from './NodeDialog';
import { QueueDialog } from './QueueDialog';
import { ReadyDialog } from './ReadyDialog';

/** Every game dialog and the float, mounted once by the app shell. */
export function GameOverlays() {
  return (
    <>
      <NodeDialog />
      <QueueDialog />
      <ReadyDialog />
      <MissedQueueMessage />
      <GameFloat />
    </>
  );
}
