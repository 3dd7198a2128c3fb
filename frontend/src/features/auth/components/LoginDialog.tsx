import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useState } from 'react';
import { isInCar } from '../../../lib/browserCheck';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import type { LoginType } from '../../../kernel/uiStore';
import { LoginForm } from '../stores/loginForm';
import { PasswordLoginStore } from '../stores/passwordLogin';
import { securityCheckOf } from '../stores/securityCheck';
import { OpenType, ThirdPartyStore } from '../stores/thirdParty';
import { PasswordFields } from './PasswordFields';
import { PhoneCodeFields } from './PhoneCodeFields';
import { QrLoginPanel } from './QrLoginPanel';
import { PhoneBindDialog, QqDialog, WechatFrame } from './ThirdPartyLogin';

// the forgot-password dialog loads when first shown
const ForgotPasswordDialog = lazy(async () => ({ default: (await import('./ForgotPasswordDialog')).ForgotPasswordDialog }));


/**
 * The login dialog (core-platform.md §2.3): the phone-code and account-and-password tabs, the
 * app QR, the third parties. A fresh form every time it opens.
 */
export const LoginDialog = observer(function LoginDialog() {
  const { ui } = useStores();
  if (!ui.loginOpen) return null;
  return <LoginDialogBody />;
});

const LoginDialogBody = observer(function LoginDialogBody() {
  const root = useStores();
  const { ui, user } = root;
  const [form] = useState(() => new LoginForm(user, securityCheckOf(root)));
  // in a car the phone's types are not offered (§2.3, §4.14): a dialog asked for them opens on
  // the default type
  const inCar = isInCar(navigator.userAgent);
  const [initial] = useState<LoginType>(() => (inCar && (ui.loginType === 'phone' || ui.loginType === 'account') ? 'wechat' : ui.loginType));
  const [type, setType] = useState<LoginType>(initial);
  const [third] = useState(() => new ThirdPartyStore(root));
  const [pw] = useState(() => new PasswordLoginStore(root));
  const [forgetOpen, setForgetOpen] = useState(false);
  useEffect(() => third.listen(), [third]);
  // opened on the messaging app (the default type): its authorize frame loads at once
  useEffect(() => {
    if (initial === 'wechat') void third.open(OpenType.WECHAT);
  }, [third, initial]);
  const choose = (t: LoginType) => {
    setType(t);
    if (t === 'wechat') void third.open(OpenType.WECHAT);
  };
  if (third.bindToken) return <PhoneBindDialog store={third} />;
  if (forgetOpen) {
    return (
      <Suspense fallback={null}>
        <ForgotPasswordDialog mode="forget" onClose={() => setForgetOpen(false)} />
      </Suspense>
    );
  }

  return (
    <Modal title="登录" onClose={() => ui.closeLogin()} testId="login-dialog" width={400} className="login-dialog">
      {type === 'qrcode' ? (
        <QrLoginPanel />
      ) : type === 'wechat' ? (
        <WechatFrame store={third} />
      ) : (
        <>
          <div className="tabs" role="tablist">
            <button
              type="button"
              role="tab"
              aria-selected={type === 'phone'}
              className={`tabs__tab${type === 'phone' ? ' is-active' : ''}`}
              data-testid="login-tab-phone"
              onClick={() => choose('phone')}
            >
              手机验证码登录
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={type === 'account'}
              className={`tabs__tab${type === 'account' ? ' is-active' : ''}`}
              data-testid="login-tab-account"
              onClick={() => choose('account')}
            >
              账号密码登录
            </button>
          </div>
          {type === 'account' ? (
            <PasswordFields store={pw} onForgot={() => setForgetOpen(true)} />
          ) : (
          <form
            className="login-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void form.submit();
            }}
          >
            <PhoneCodeFields
              prefix="login"
              phone={form.phone}
              code={form.code}
              onPhone={(v) => form.setPhone(v)}
              onCode={(v) => form.setCode(v)}
              phoneError={form.phoneError}
              codeError={form.codeError}
              sendLabel={form.sendLabel}
              canSend={form.canSend}
              onSend={() => void form.sendCode()}
            />
            {form.serverError && (
              <div className="form-error" role="alert" data-testid="login-error">
                {form.serverError}
              </div>
            )}
            <button type="submit" className="btn btn--primary btn--block btn--lg" data-testid="login-submit" disabled={form.submitting}>
              {form.submitting ? '登录中...' : '登录'}
            </button>
          </form>
          )}
        </>
      )}
      {/* the other login methods (§2.3): the phone entry hidden on its own types and in a car,
          the app QR hidden on its own type and labelled for a car */}
      <div className="login-others" data-testid="login-others">
        {type !== 'phone' && type !== 'account' && !inCar && (
          <button type="button" className="login-others__item" data-testid="login-type-phone" onClick={() => choose('phone')}>
            手机号登录
          </button>
        )}
        {type !== 'wechat' && (
          <button type="button" className="login-others__item" data-testid="login-type-wechat" onClick={() => choose('wechat')}>
            微信登录
          </button>
        )}
        <button type="button" className="login-others__item" data-testid="login-type-qq" onClick={() => void third.open(OpenType.QQ)}>
          QQ登录
        </button>
        {type !== 'qrcode' && (
          <button type="button" className="login-others__item" data-testid="login-type-qrcode" onClick={() => choose('qrcode')}>
            {inCar ? '手机扫码登录' : 'App扫码登录'}
          </button>
        )}
      </div>
      <QqDialog store={third} />
      <p className="agreement">
        登录视为同意<span className="agreement__link">《用户服务协议》</span>和<span className="agreement__link">《隐私政策》</span>
      </p>
    </Modal>
  );
});
