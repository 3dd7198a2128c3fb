import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { QrImage } from '../../purchase/components/QrImage';

/** The default QR size (core-platform.md §9). */
const QR_SIZE = 96;

/** core-platform.md §2.14: icon, title, a QR code of the address, and its description. */
export const CarActionDialog = observer(function CarActionDialog() {
  const { ui } = useStores();
  const a = ui.carAction;
  if (!a) return null;
  return (
    <Modal title={a.title} onClose={() => ui.showCarAction(null)} testId="car-action-dialog" width={320}>
      <div className="car-action">
        <img src="/favicon.svg" alt="" className="car-action__icon" width={40} height={40} />
        <QrImage text={a.url} size={QR_SIZE} label={a.title} />
        <p className="car-action__desc">{a.desc}</p>
      </div>
    </Modal>
  );
});
