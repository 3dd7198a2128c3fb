import { observer } from 'mobx-react-lite';
import { memberButton } from '../../../lib/member';
import { useStores } from '../../../stores/context';

/** /user/member: the membership purchase, standard (vip) or senior (vvip), in the purchase dialog. */
export const MemberPage = observer(function MemberPage() {
  const root = useStores();
  const b = memberButton(root.user.isLoggedIn, root.user.profile?.member_info?.using);
  return (
    <div className="status-page" data-testid="member-page">
      <h1 className="status-page__title">会员中心</h1>
      <div className="member-page__actions">
        <button type="button" className="btn header__member--vip" data-testid="member-buy-vip" onClick={() => root.openPurchase('member', { category: 'vip' })}>
          {b.label === '续费会员' && b.category === 'vip' ? '续费会员' : '开通会员'} · 标准会员
        </button>
        <button type="button" className="btn header__member--vvip" data-testid="member-buy-vvip" onClick={() => root.openPurchase('member', { category: 'vvip' })}>
          {b.label === '续费会员' && b.category === 'vvip' ? '续费会员' : '开通会员'} · 高级会员
        </button>
      </div>
    </div>
  );
});
