import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { QrImage } from '../../purchase/components/QrImage';

/** core-platform.md §9: the unsupported game's QR size */
const QR_SIZE = 138;

/**
 * The unsupported (mobile) game (core-platform.md §2.14): '这是一款手游，请使用移动端体验' with a
 * 138px QR code of the game's share link and '扫码立即体验'.
 */
export const UnsupportedGameDialog = observer(function UnsupportedGameDialog() {
  const steps = useStores().game.steps;
  const u = steps?.unsupported;
  if (!steps || !u) return null;
  return (
    <Modal title="温馨提示" onClose={() => steps.closeUnsupported()} testId="unsupported-game" width={360}>
      <div className="unsupported-game">
        <p className="unsupported-game__text">这是一款手游，请使用移动端体验</p>
        <div className="unsupported-game__qr" data-testid="unsupported-game-qr">
          <QrImage text={u.link} size={QR_SIZE} label="游戏分享二维码" />
        </div>
        <p className="unsupported-game__hint">扫码立即体验</p>
      </div>
    </Modal>
  );
});
