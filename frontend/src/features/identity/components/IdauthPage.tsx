import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useStores } from '../stores/context';
import { errorMessage } from '../../../transport/apiError';
import { CertificationForm } from '../stores/certification';
import { CertificationFields } from './CertificationDialog';

type Step = 'scanning' | 'form' | 'refused';

/** Where the phone lands when it is over (the spec's QR scan target /qrcode/certification/result). */
const RESULT_PATH = '/qrcode/certification/result';

/**
 * /qrcode/certification?ticket=: the phone's side of QR certification (core-platform.md §2.15
 * in-car variant, §2.1's QR scan targets). Signed in to the account whose screen shows the code,
 * the phone opens it (the screen hears the scan), certifies with the ordinary form, or cancels;
 * either way it goes on to /qrcode/certification/result.
 */
export function IdauthPage() {
  return useLocation().pathname.endsWith('/result') ? <IdauthResultPage /> : <IdauthScanPage />;
}

const IdauthScanPage = observer(function IdauthScanPage() {
  const root = useStores();
  const { user, ui, api } = root;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const ticket = params.get('ticket') ?? '';
  const [form] = useState(() => new CertificationForm(root));
  const [step, setStep] = useState<Step>('scanning');
  const [refusal, setRefusal] = useState('');
  const loggedIn = user.isLoggedIn;

  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    api.post('/api/v3/qrcode/idauth/scan', { ticket }).then(
      () => live && setStep('form'),
      (e: unknown) => {
        if (!live) return;
        setRefusal(errorMessage(e));
        setStep('refused');
      },
    );
    return () => {
      live = false;
    };
  }, [api, ticket, loggedIn]);

  if (!user.ready) return <div className="page container" />;
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">请登录需要实名认证的账号</h1>
        <button type="button" className="btn btn--primary" data-testid="idauth-login" onClick={() => ui.openLogin(undefined, 'phone')}>
          登录
        </button>
      </div>
    );
  }
  const cancel = () =>
    api.post('/api/v3/qrcode/idauth/cancel', { ticket }).then(
      () => navigate(`${RESULT_PATH}?status=cancel`, { replace: true }),
      (e: unknown) => ui.warning(errorMessage(e)),
    );
  return (
    <div className="page container idauth" data-testid="idauth-page" data-step={step}>
      <h1 className="status-page__title">实名认证</h1>
      {step === 'refused' && <p data-testid="idauth-refused">{refusal}</p>}
      {step === 'form' && (
        <form
          className="login-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void form.submit().then((ok) => ok && navigate(`${RESULT_PATH}?status=success`, { replace: true }));
          }}
        >
          <p className="certification__notice">根据国家相关法律法规要求，网络游戏用户需进行实名认证。</p>
          <CertificationFields form={form} />
          <button type="button" className="btn btn--ghost btn--block" data-testid="idauth-cancel" onClick={() => void cancel()}>
            取消
          </button>
        </form>
      )}
    </div>
  );
});

/** /qrcode/certification/result?status=success|cancel: how the phone's certification ended. */
function IdauthResultPage() {
  const [params] = useSearchParams();
  const done = params.get('status') === 'success';
  return (
    <div className="page container idauth" data-testid="idauth-result">
      <h1 className="status-page__title">实名认证</h1>
      {done ? <p data-testid="idauth-done">认证成功，请返回车机继续使用</p> : <p data-testid="idauth-cancelled">已取消认证</p>}
    </div>
  );
}
