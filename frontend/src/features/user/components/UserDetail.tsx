import { observer } from 'mobx-react-lite';
import { Avatar } from '../../../components/Avatar';
import { useStores } from '../stores/context';
import { AccountSecurity } from '../../auth/components/AccountSecurity';
import { accountCentreOf, type UcTarget } from '../stores/accountCentre';
import '../user.css';

/**
 * /user/detail, the account details (social.md §2.1; commerce.md §4.11's upAvatar and
 * upNickname tasks lead here): the avatar and the profile are changed at the external account
 * centre (core-platform.md §2.6), the password here (`?changePassword=1` opens its dialog).
 */
export const UserDetail = observer(function UserDetail() {
  const root = useStores();
  const uc = accountCentreOf(root);
  const p = root.user.profile;
  if (!p) return null;
  const entry = (target: UcTarget, label: string) => (
    <button
      type="button"
      className="btn btn--ghost btn--sm"
      data-testid={`uc-entry-${target}`}
      disabled={uc.opening !== null}
      onClick={() => void uc.open(target)}
    >
      {uc.opening === target ? '打开中…' : label}
    </button>
  );
  return (
    <div className="page container user-detail" data-testid="user-detail">
      <h1 className="user-detail__title">账号资料</h1>
      <div className="user-detail__row">
        <span className="user-detail__label">头像</span>
        <span className="user-detail__value" data-testid="user-detail-avatar" data-src={p.avatar ?? ''}>
          <Avatar src={p.avatar} name={root.user.displayName} size={56} />
        </span>
        {entry('AVATAR', '修改头像')}
      </div>
      <div className="user-detail__row">
        <span className="user-detail__label">昵称</span>
        <span className="user-detail__value" data-testid="user-detail-nickname">
          {root.user.displayName}
        </span>
        {entry('INFO', '修改资料')}
      </div>
      <div className="user-detail__row">
        <span className="user-detail__label">ID</span>
        <span className="user-detail__value">{p.uid}</span>
      </div>
      <div className="user-detail__row">
        <span className="user-detail__label">账号中心</span>
        <span className="user-detail__value">头像、昵称等资料在账号中心修改</span>
        {entry('HOME', '前往账号中心')}
      </div>
      <AccountSecurity />
    </div>
  );
});
