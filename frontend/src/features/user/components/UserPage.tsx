import { observer } from 'mobx-react-lite';
import { Suspense } from 'react';
import { Link, useMatch } from 'react-router';
import { lazyPage } from '../../../lib/lazyPage';
import { Avatar } from '../../../components/Avatar';
import { isInCar } from '../../../lib/browserCheck';
import { formatPlayTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { MemberPanel } from '../../member/components/MemberPanel';
import { CardPanelFooter } from './CardPanelFooter';
import { AccountSecurity } from '../../auth/components/AccountSecurity';
import { accountCentreOf } from '../stores/accountCentre';
import { UserDetail } from './UserDetail';

/**
 * /user/collect and /user/played (social.md §2.1, §2.4): a chunk of their own, reached through
 * this page's `user/*` route so that the app's route table (on the home route) stays as it is.
 */
const CollectPage = lazyPage(() => import('./CollectPages'), 'CollectPage');
const PlayedPage = lazyPage(() => import('./CollectPages'), 'PlayedPage');

export const UserPage = observer(function UserPage() {
  const root = useStores();
  const { user, ui } = root;
  const detail = useMatch('/user/detail') !== null;
  const collect = useMatch('/user/collect') !== null;
  const played = useMatch('/user/played') !== null;
  if (collect || played) {
    return <Suspense fallback={<div className="page container" />}>{collect ? <CollectPage /> : <PlayedPage />}</Suspense>;
  }
  if (!user.ready) return <div className="page container" />;
  const p = user.profile;
  if (!p) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看个人中心</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  if (detail) return <UserDetail />;
  return (
    <div className="page container">
      <div className="profile-card" data-testid="profile-card">
        {/* the avatar opens the account centre's avatar page (core-platform.md §2.6) */}
        <button
          type="button"
          className="profile-card__avatar"
          title="修改头像"
          data-testid="profile-avatar"
          onClick={() => void accountCentreOf(root).open('AVATAR')}
        >
          <Avatar src={p.avatar} name={user.displayName} size={72} />
        </button>
        <div>
          <h1 className="profile-card__name">{user.displayName}</h1>
          <div className="profile-card__meta">ID: {p.uid}</div>
          {p.cellphone && <div className="profile-card__meta">手机号：{p.cellphone}</div>}
        </div>
        <Link to="/user/detail" className="btn btn--ghost btn--sm profile-card__link" data-testid="user-detail-link">
          账号资料
        </Link>
        <Link to="/user/history" className="btn btn--ghost btn--sm" data-testid="user-history">
          游戏记录
        </Link>
        <Link to="/user/card" className="btn btn--ghost btn--sm" data-testid="user-backpack">
          我的背包
        </Link>
        {/* in a car the header's popover (with 退出登录) is off: the card logs out (§4.14) */}
        {isInCar(navigator.userAgent) && (
          <button type="button" className="btn btn--ghost btn--sm profile-card__link" data-testid="user-card-logout" onClick={() => void root.logout()}>
            退出
          </button>
        )}
      </div>
      <AccountSecurity />
      <MemberPanel />
      <CardPanelFooter />
      <div className="stats">
        <div className="stat">
          <div className="stat__label">剩余时长</div>
          <div className="stat__value" data-testid="profile-play-time">
            {formatPlayTime(p.play_time_total)}
          </div>
          <button type="button" className="btn btn--ghost btn--sm stat__action" data-testid="profile-buy-time" onClick={() => root.openPurchase('time')}>
            购买时长
          </button>
        </div>
        <div className="stat">
          <div className="stat__label">油豆</div>
          <div className="stat__value" data-testid="profile-yoodo">
            {p.yoodo ?? '0'}
          </div>
          <button type="button" className="btn btn--ghost btn--sm stat__action" data-testid="profile-buy-yoodo" onClick={() => root.openPurchase('yoodo')}>
            充值
          </button>
        </div>
        <div className="stat">
          <div className="stat__label">云游币</div>
          <div className="stat__value" data-testid="profile-balance">
            {p.balance ?? 0}
          </div>
          <button type="button" className="btn btn--ghost btn--sm stat__action" data-testid="profile-buy-coin" onClick={() => root.openPurchase('coin')}>
            充值
          </button>
        </div>
      </div>
    </div>
  );
});
