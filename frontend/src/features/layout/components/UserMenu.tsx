import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AdSlot } from '../../../components/AdSlot';
import { Avatar } from '../../../components/Avatar';
import { useStores } from '../stores/context';
import { formatPlayTime } from '../../../lib/time';
import { formatDate } from '../../../lib/time';
import { isPlatformMember, memberName } from '../../../lib/member';
import RecentPopover from './RecentPopover';

/**
 * The signed-in user's avatar and name in the header, and the popover they open (commerce.md
 * §2.3): the member and asset blocks, 个人中心, 账号资料 (/user/detail, social.md §2.2) and 退出登录;
 * before it, the recent popover (social.md §2.4).
 */
const UserMenu = observer(function UserMenu() {
  const root = useStores();
  const { user } = root;
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const profile = user.profile;

  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  if (!profile) return null;
  const using = profile.member_info?.using ?? null;
  const expiry = profile.member_info?.items.find((i) => i.type === using)?.expired_at;
  const buy = (type: 'time' | 'yoodo' | 'queue') => {
    setOpen(false);
    root.openPurchase(type);
  };
  return (
    <>
      {/* social.md §2.2: the recent popover, before the avatar; in this chunk, loaded once signed in */}
      <RecentPopover />
      <div className="user-menu" ref={ref} onMouseLeave={() => setOpen(false)}>
        <button
          type="button"
          className="user-menu__trigger"
          data-testid="header-user"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          onMouseEnter={() => setOpen(true)}
        >
          <Avatar src={profile.avatar} name={user.displayName} />
          <span className="user-menu__name" data-testid="header-nickname">
            {user.displayName}
          </span>
        </button>
        {open && (
          <div className="popover user-menu__popover" data-testid="user-popover">
            <div className="user-menu__head">
              <Avatar src={profile.avatar} name={user.displayName} size={48} />
              <div>
                <div className="user-menu__nick">{user.displayName}</div>
                <div className="user-menu__uid" data-testid="user-uid">
                  ID: {profile.uid}
                </div>
              </div>
            </div>
            <div className="user-menu__asset" data-testid="user-member">
              <span>{using ? `${memberName(using)} ${expiry ? `${formatDate(expiry)} 到期` : ''}` : '开通标准会员 每天免费领1小时游戏时长'}</span>
              <button
                type="button"
                className="user-menu__buy"
                data-testid="user-buy-member"
                onClick={() => {
                  setOpen(false);
                  root.openPurchase('member', { category: using === 'vvip' ? 'vvip' : 'vip' });
                }}
              >
                {isPlatformMember(using) ? '续费会员' : '开通会员'}
              </button>
            </div>
            <AdSlot slot="header_user_pannel" onItemClick={() => setOpen(false)} />
            <div className="user-menu__asset" data-testid="user-play-time">
              <span>游戏时长 {formatPlayTime(profile.play_time_total)}</span>
              <Link to="/user/playtime" className="user-menu__buy" data-testid="user-view-time" onClick={() => setOpen(false)}>
                查看
              </Link>
            </div>
            <div className="user-menu__asset" data-testid="user-yoodo">
              <span>油豆 {profile.yoodo ?? '0'}</span>
              <button type="button" className="user-menu__buy" data-testid="user-buy-yoodo" onClick={() => buy('yoodo')}>
                充值
              </button>
            </div>
            <div className="user-menu__asset" data-testid="user-fast-enter">
              <span>速进时长 {formatPlayTime((profile.fast_enter_expires_in ?? 0) / 60)}</span>
              <button type="button" className="user-menu__buy" data-testid="user-buy-queue" onClick={() => buy('queue')}>
                购买
              </button>
            </div>
            <Link to="/user" className="user-menu__item" onClick={() => setOpen(false)}>
              个人中心
            </Link>
            <Link to="/user/detail" className="user-menu__item" data-testid="header-user-detail" onClick={() => setOpen(false)}>
              账号资料
            </Link>
            <button
              type="button"
              className="user-menu__item user-menu__logout"
              data-testid="header-logout"
              onClick={() => {
                setOpen(false);
                void root.logout();
              }}
            >
              退出登录
            </button>
          </div>
        )}
      </div>
    </>
  );
});

export default UserMenu;
