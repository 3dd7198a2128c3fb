import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { InputField } from '../../../components/InputField';
import { Modal } from '../../../components/Modal';
import { PASSWORD_MAX_LENGTH, PasswordMessages } from '../../../lib/password';
import { useStores } from '../stores/context';
import { ForgotPasswordStore, type PasswordMode } from '../stores/forgotPassword';
import { PhoneCodeFields } from './PhoneCodeFields';

/**
 * Forgot / change / set password (§2.5): the phone and code, '下一步'; then the new password
 * and its confirm, '完成'.
 */
export const ForgotPasswordDialog = observer(function ForgotPasswordDialog({ mode, onClose }: { mode: PasswordMode; onClose(): void }) {
  const root = useStores();
  const [store] = useState(() => new ForgotPasswordStore(root, mode));
  useEffect(() => {
    if (store.done) onClose();
  }, [store.done, onClose]);
  return (
    <Modal title={store.title} onClose={onClose} testId="password-dialog" width={400}>
      {store.step === 1 ? (
        <form
          className="login-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void store.next();
          }}
        >
          <PhoneCodeFields
            prefix="forget"
            phone={store.phone}
            code={store.code}
            onPhone={(v) => store.setPhone(v)}
            onCode={(v) => store.setCode(v)}
            phoneError={store.phoneError}
            codeError={store.codeError}
            sendLabel={store.sendLabel}
            canSend={store.canSend}
            onSend={() => void store.sendCode()}
          />
          {store.serverError && (
            <div className="form-error" role="alert" data-testid="forget-error">
              {store.serverError}
            </div>
          )}
          <button type="submit" className="btn btn--primary btn--block btn--lg" data-testid="forget-next" disabled={store.submitting}>
            下一步
          </button>
        </form>
      ) : (
        <form
          className="login-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void store.finish();
          }}
        >
          <InputField
            testId="forget-password"
            error={store.passwordError}
            type="password"
            autoComplete="new-password"
            placeholder={PasswordMessages.PLACEHOLDER}
            maxLength={PASSWORD_MAX_LENGTH}
            value={store.password}
            onValue={(v) => store.setPassword(v)}
          />
          <InputField
            testId="forget-confirm"
            error={store.confirmError}
            type="password"
            autoComplete="new-password"
            placeholder="请再次输入密码"
            maxLength={PASSWORD_MAX_LENGTH}
            value={store.confirm}
            onValue={(v) => store.setConfirm(v)}
          />
          {store.serverError && (
            <div className="form-error" role="alert" data-testid="forget-error">
              {store.serverError}
            </div>
          )}
          <button type="submit" className="btn btn--primary btn--block btn--lg" data-testid="forget-finish" disabled={store.submitting}>
            完成
          </button>
        </form>
      )}
    </Modal>
  );
});
