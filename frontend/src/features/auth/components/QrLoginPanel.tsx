import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { isInCar } from '../../../lib/browserCheck';
import { useStores } from '../stores/context';
import { QrImage } from '../../purchase/components/QrImage';
import { QR_STATE_TEXT, QrLoginStore } from '../stores/qrLogin';

/** core-platform.md §9: the login QR code's size. */
const QR_SIZE = 160;

/** App-QR login (§2.3, §4.12): the code with its status overlay and '点击刷新'. */
export const QrLoginPanel = observer(function QrLoginPanel() {
  const root = useStores();
  const [store] = useState(() => new QrLoginStore(root));
  useEffect(() => {
    void store.load();
    return () => store.stop();
  }, [store]);
  const text = QR_STATE_TEXT[store.state];
  return (
    <div className="qr-login" data-testid="qr-login" data-state={store.state}>
      <div className="qr-login__code">
        {store.url ? <QrImage text={store.url} size={QR_SIZE} label="登录二维码" /> : <div className="qr-login__blank" style={{ width: QR_SIZE, height: QR_SIZE }} />}
        {text && (
          <button
            type="button"
            className="qr-login__overlay"
            data-testid="qr-login-overlay"
            disabled={!store.refreshable}
            onClick={() => store.refresh()}
          >
            {text.map((line) => (
              <span key={line}>{line}</span>
            ))}
            {store.refreshable && <span className="qr-login__refresh">点击刷新</span>}
          </button>
        )}
      </div>
      <p className="qr-login__hint">{isInCar(navigator.userAgent) ? '请使用手机扫码登录' : '请使用云游App扫码登录'}</p>
    </div>
  );
});
