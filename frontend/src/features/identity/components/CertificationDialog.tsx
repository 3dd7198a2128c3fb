import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { isInCar } from '../../../lib/browserCheck';
import { QrImage } from '../../purchase/components/QrImage';
import { QR_CERT_TEXT, QrCertificationStore } from '../stores/qrCertification';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { CertificationForm, ID_NO_MAX_LENGTH } from '../stores/certification';

/** core-platform.md §2.15: the certification dialog, while one is asked for. */
export const CertificationDialog = observer(function CertificationDialog() {
  const { ui } = useStores();
  if (!ui.certification) return null;
  return <CertificationBody />;
});

const CertificationBody = observer(function CertificationBody() {
  const root = useStores();
  const ask = root.ui.certification!;
  const [form] = useState(() => new CertificationForm(root));
  const close = async () => {
    if (ask.queue) {
      const giveUp = await root.ui.confirm({
        title: '温馨提示',
        message: '放弃认证将退出游戏，下次需重新排队，确定放弃吗？',
        confirmText: '确定',
        cancelText: '继续认证',
      });
      if (!giveUp) return;
    }
    ask.resolve(false);
  };
  if (isInCar(navigator.userAgent)) {
    return (
      <Modal title="实名认证" onClose={() => void close()} testId="certification-dialog" width={360}>
        <QrCertificationPanel onCertified={() => ask.resolve(true)} />
      </Modal>
    );
  }
  return (
    <Modal title="实名认证" onClose={() => void close()} testId="certification-dialog" width={420}>
      <p className="certification__notice">
        根据国家相关法律法规要求，网络游戏用户需进行实名认证。未满18周岁的用户将纳入防沉迷系统，仅可在周五、周六、周日和法定节假日的20时至21时进行游戏。
      </p>
      <form
        className="login-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void form.submit().then((ok) => ok && ask.resolve(true));
        }}
      >
        <CertificationFields form={form} />
        {ask.skippable && (
          <button type="button" className="btn btn--ghost btn--block" data-testid="cert-skip" onClick={() => ask.resolve(false)}>
            下次再说
          </button>
        )}
      </form>
    </Modal>
  );
});

/** core-platform.md §2.15's in-car QR variant: certify on a phone signed in to this account. */
const QrCertificationPanel = observer(function QrCertificationPanel({ onCertified }: { onCertified: () => void }) {
  const { api, ui } = useStores();
  const [store] = useState(() => new QrCertificationStore(api));
  useEffect(() => {
    void store.load();
    return () => store.stop();
  }, [store]);
  useEffect(() => {
    if (!store.certified) return;
    ui.success('实名认证成功');
    onCertified();
  }, [store.certified, ui, onCertified]);
  const text = QR_CERT_TEXT[store.state];
  return (
    <div className="qr-login" data-testid="cert-qr" data-state={store.state}>
      <p className="certification__notice">账号未实名认证，功能暂不可用</p>
      <div className="qr-login__code">
        {store.url ? <QrImage text={store.url} size={160} label="实名认证二维码" /> : <div className="qr-login__blank" style={{ width: 160, height: 160 }} />}
        {text && (
          <button type="button" className="qr-login__overlay" data-testid="cert-qr-overlay" disabled={!store.refreshable} onClick={() => store.refresh()}>
            <span>{text}</span>
            {store.refreshable && <span className="qr-login__refresh">点击刷新</span>}
          </button>
        )}
      </div>
      <p className="qr-login__hint">请使用手机扫码完成实名认证</p>
    </div>
  );
});

/** The certification form's fields and '提交认证' (§2.15, §5.3): the dialog's and the phone page's. */
export const CertificationFields = observer(function CertificationFields({ form }: { form: CertificationForm }) {
  return (
    <>
      <div className="field">
        <input className="input" data-testid="cert-name" placeholder="请输入真实姓名" value={form.realName} onChange={(e) => form.setRealName(e.target.value)} />
      </div>
      <div className="field">
        <input
          className="input"
          data-testid="cert-id"
          placeholder="请输入身份证号"
          maxLength={ID_NO_MAX_LENGTH}
          value={form.idNo}
          onChange={(e) => form.setIdNo(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn--primary btn--block btn--lg" data-testid="cert-submit" disabled={form.submitting}>
        提交认证
      </button>
    </>
  );
});
