import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { securityCheckOf } from '../stores/securityCheck';

/**
 * The security check (§4.13, §8.1: a password login's 20125 / 20128, a code send's 20125): the
 * provider's widget (the sandbox's challenge page in dev mode), over whichever dialog asked.
 * Its result goes back to the asker; closing it unsolved warns.
 */
export const CaptchaDialog = observer(function CaptchaDialog() {
  const check = securityCheckOf(useStores());
  const c = check.captcha;
  if (!c) return null;
  return (
    <Modal title="安全验证" onClose={() => check.close()} testId="captcha-dialog" width={360}>
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
