import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useStores } from '../stores/context';
import { AccountSecurityStore } from '../stores/forgotPassword';

const ForgotPasswordDialog = lazy(async () => ({ default: (await import('./ForgotPasswordDialog')).ForgotPasswordDialog }));

/** The account page's password row; `?changePassword=1` opens the dialog at once (§2.6). */
export const AccountSecurity = observer(function AccountSecurity() {
  const root = useStores();
  const [store] = useState(() => new AccountSecurityStore(root));
  const [params, setParams] = useSearchParams();
  const wanted = params.get('changePassword') === '1';
  useEffect(() => {
    void store.load();
  }, [store]);
  useEffect(() => {
    if (wanted && store.binding) store.open();
  }, [wanted, store, store.binding]);
  if (!store.binding) return null;
  const close = () => {
    store.close();
    if (wanted) setParams({}, { replace: true });
  };
  return (
    <div className="account-security" data-testid="account-security">
      <span className="account-security__label">登录密码：{store.binding.password ? '已设置' : '未设置'}</span>
      <button type="button" className="btn btn--ghost btn--sm" data-testid="account-password-open" onClick={() => store.open()}>
        {store.label}
      </button>
      {store.mode && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog mode={store.mode} onClose={close} />
        </Suspense>
      )}
    </div>
  );
});
