import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../lib/time';
import { yuan } from '../../../lib/purchase';
import { useStores } from '../stores/context';
import { AGREEMENT_STATE_TEXT, AgreementStore } from '../stores/agreementStore';

/** The member page's auto-renewals: what renews, when and for how much, and '取消自动续费'. */
export const AgreementList = observer(function AgreementList() {
  const { api, ui, user } = useStores();
  const [store] = useState(
    () =>
      new AgreementStore(api, {
        confirm: (message) => ui.confirm({ message }),
        toast: (type, message) => ui.toast(type, message),
      }),
  );
  const profile = user.profile;
  useEffect(() => {
    if (profile) void store.load();
  }, [store, profile]);
  if (store.shown.length === 0) return null;
  return (
    <section className="agreements" data-testid="agreements">
      <h2 className="agreements__title">自动续费管理</h2>
      <ul className="agreements__list">
        {store.shown.map((a) => (
          <li key={a.agreement_no} className="agreements__item" data-testid="agreement">
            <div>
              <div className="agreements__name">{a.title}</div>
              <div className="agreements__meta">
                {AGREEMENT_STATE_TEXT[a.state]} · 下次扣费 {formatDate(a.next_at)} · ¥{yuan(a.amount_fen)}/期
              </div>
            </div>
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              data-testid="agreement-cancel"
              disabled={store.cancelling !== null}
              onClick={() => void store.cancel(a)}
            >
              取消自动续费
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
});
