import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { safeCallbackUrl } from '../../../lib/password';
import { useStores } from '../stores/context';

/**
 * The 'login' route (§2.2): the login dialog opens; after the login the player goes to
 * callbackUrl when it is a path of this site, else to '/'.
 */
export const LoginPage = observer(function LoginPage() {
  const { ui, user } = useStores();
  const [params] = useSearchParams();
  const target = safeCallbackUrl(params.get('callbackUrl'));
  const { ready, isLoggedIn } = user;
  useEffect(() => {
    if (!ready) return;
    if (isLoggedIn) ui.navigate(target);
    else ui.openLogin(() => ui.navigate(target));
  }, [ready, isLoggedIn, target, ui]);
  return (
    <div className="status-page" data-testid="login-page">
      <h1 className="status-page__title">登录</h1>
      {ready && !isLoggedIn && (
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin(() => ui.navigate(target))}>
          登录
        </button>
      )}
    </div>
  );
});
