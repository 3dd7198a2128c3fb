import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { OpenType, type ThirdPartyStore } from '../stores/thirdParty';
import { PhoneCodeFields } from './PhoneCodeFields';

/** The messaging app's login (§2.3): its authorize page in a 182×182 frame. */
export const WechatFrame = observer(function WechatFrame({ store }: { store: ThirdPartyStore }) {
  return (
    <div className="third-party" data-testid="wechat-login">
      {store.url && store.openType === OpenType.WECHAT ? (
        <iframe title="微信登录" src={store.url} width={182} height={182} className="third-party__frame" data-testid="wechat-frame" />
      ) : (
        <div className="third-party__frame" style={{ width: 182, height: 182 }} />
      )}
      {store.error && <div className="form-error">{store.error}</div>}
      <p className="qr-login__hint">请使用微信扫码登录</p>
    </div>
  );
});

/** The second provider's login (§2.3): a 670px dialog with its page in a 667×400 frame. */
export const QqDialog = observer(function QqDialog({ store }: { store: ThirdPartyStore }) {
  if (store.openType !== OpenType.QQ) return null;
  return (
    <Modal title="QQ登录" onClose={() => store.close()} testId="qq-dialog" width={670}>
      {store.url ? <iframe title="QQ登录" src={store.url} width={667} height={400} className="third-party__frame" data-testid="qq-frame" /> : null}
    </Modal>
  );
});

/** §2.4: the phone bind after a third-party login whose account has no phone. */
export const PhoneBindDialog = observer(function PhoneBindDialog({ store }: { store: ThirdPartyStore }) {
  const { user } = useStores();
  const sendLabel = user.codeCountdown > 0 ? `${user.codeCountdown}s后重新获取` : '获取验证码';
  return (
    <Modal
      title="手机绑定"
      onClose={() => store.cancelBind()}
      testId="phone-bind-dialog"
      width={400}
      footer={
        <p className="phone-bind__links">
          <Link to="/service">无法绑定？</Link>
          <Link to="/service">问题反馈</Link>
        </p>
      }
    >
      <p>为保障您的账户安全，请绑定手机号</p>
      <form
        className="login-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void store.bindLogin();
        }}
      >
        <PhoneCodeFields
          prefix="bind"
          phone={store.phone}
          code={store.code}
          onPhone={(v) => store.setPhone(v)}
          onCode={(v) => store.setCode(v)}
          sendLabel={sendLabel}
          canSend={user.codeCountdown === 0 && !user.sendingCode}
          onSend={() => void store.sendBindCode()}
        />
        {store.error && (
          <div className="form-error" role="alert" data-testid="bind-error">
            {store.error}
          </div>
        )}
        <button type="submit" className="btn btn--primary btn--block btn--lg" data-testid="bind-submit" disabled={store.submitting}>
          完成
        </button>
      </form>
    </Modal>
  );
});
