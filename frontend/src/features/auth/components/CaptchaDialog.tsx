import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import type { PasswordLoginStore } from '../stores/passwordLogin';

/**
 * The security check of a password login (§4.13, 20125 / 20128): the provider's widget (the
 * sandbox's challenge page in dev mode). Its result resubmits the login; closing it unsolved warns.
 */
export const CaptchaDialog = observer(function CaptchaDialog({ store }: { store: PasswordLoginStore }) {
  const c = store.captcha;
  if (!c) return null;
  return (
    <Modal title="安全验证" onClose={() => store.closeCaptcha()} testId="captcha-dialog" width={360}>
      {c.page_url ? (
        <iframe className="captcha-frame" title="安全验证" src={c.page_url} width={320} height={170} data-testid="captcha-frame" />
      ) : (
        <p className="form-error" role="alert">
          安全验证加载失败，请稍后再试
        </p>
      )}
    </Modal>
  );
});
