import { observer } from 'mobx-react-lite';
import { InputField } from '../../../components/InputField';
import { PHONE_MAX_LENGTH } from '../../../lib/validation';
import { PASSWORD_MAX_LENGTH } from '../../../lib/password';
import type { PasswordLoginStore } from '../stores/passwordLogin';

/** The account-and-password tab's form (§2.3): the phone, the password, '忘记密码', '登录'. */
export const PasswordFields = observer(function PasswordFields({ store, onForgot }: { store: PasswordLoginStore; onForgot(): void }) {
  return (
    <form
      className="login-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void store.submit();
      }}
    >
      <InputField
        testId="account-phone"
        error={store.phoneError}
        type="tel"
        inputMode="numeric"
        autoComplete="username"
        placeholder="请输入手机号"
        maxLength={PHONE_MAX_LENGTH}
        value={store.phone}
        onValue={(v) => store.setPhone(v)}
      />
      <InputField
        testId="account-password"
        error={store.passwordError}
        type="password"
        autoComplete="current-password"
        placeholder="请输入密码"
        maxLength={PASSWORD_MAX_LENGTH}
        value={store.password}
        onValue={(v) => store.setPassword(v)}
      />
      <div className="login-form__aside">
        <button type="button" className="link-button" data-testid="login-forgot" onClick={onForgot}>
          忘记密码
        </button>
      </div>
      {store.serverError && (
        <div className="form-error" role="alert" data-testid="login-error">
          {store.serverError}
        </div>
      )}
      <button type="submit" className="btn btn--primary btn--block btn--lg" data-testid="account-submit" disabled={store.submitting}>
        {store.submitting ? '登录中...' : '登录'}
      </button>
    </form>
  );
});
