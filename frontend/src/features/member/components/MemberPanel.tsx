import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/Modal';
import { formatDate } from '../../../lib/time';
import { isCarrierMember, isPlatformMember, memberName, memberStatus } from '../../../lib/member';
import { useStores } from '../stores/context';
import { MemberStore } from '../stores/memberStore';
import '../member.css';

/** A member store of this page, re-reading the member info whenever the profile is re-read. */
export function useMemberStore(): MemberStore {
  const root = useStores();
  const { api, ui, user } = root;
  const [store] = useState(
    () =>
      new MemberStore(api, {
        toast: (type, message) => ui.toast(type, message),
        refreshUser: () => user.loadProfile(),
        openDetail: (goods) => root.openPurchase('member', { goods, category: 'vvip' }),
      }),
  );
  const profile = user.profile;
  useEffect(() => {
    if (profile) void store.loadInfo();
  }, [store, profile]);
  return store;
}

/**
 * The user-centre card panel's member parts (commerce.md §2.4): the status line by priority,
 * the held memberships on hover (查看 beside carrier rows), the buy button (续费会员 when the
 * membership in use is held, else 开通会员), today's member play time.
 */
export const MemberPanel = observer(function MemberPanel() {
  const root = useStores();
  const navigate = useNavigate();
  const member = useMemberStore();
  const info = member.info;
  if (!info) return null;
  const now = info.systemTime;
  const status = memberStatus(info.member_info, info.previous_info, now);
  const using = info.member_info.using ?? null;
  const category = using === 'vvip' ? 'vvip' : 'vip';
  const upgrade = info.upgrade;
  return (
    <>
      {upgrade && (
        <button type="button" className="member-upgrade" data-testid="member-upgrade" onClick={() => void member.openUpgrade()}>
          <b>VIP补差价升级VVIP</b>
          <span>剩余{upgrade.up_days}天VIP可升级为VVIP，享更多特权</span>
        </button>
      )}
      <div className={`member-panel member-panel--${category}`} data-testid="member-panel">
        <div className="member-panel__status member-panel__hover" data-testid="member-status" data-kind={status.kind}>
          {status.text}
          {info.member_info.items.length > 0 && (
            <ul className="popover member-panel__items" data-testid="member-items">
              {info.member_info.items.map((i) => (
                <li key={i.type} data-testid="member-item">
                  <span>{memberName(i.type)}</span>
                  <span>{formatDate(i.expired_at)} 到期</span>
                  {isCarrierMember(i.type) && (
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => navigate('/user/member')}>
                      查看
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="member-panel__actions">
          {isPlatformMember(using) && using && (
            <button type="button" className="btn btn--ghost btn--sm" data-testid="member-receive" disabled={member.receiving} onClick={() => void member.receive(using)}>
              领取会员时长
            </button>
          )}
          <button type="button" className={`btn btn--sm header__member header__member--${category}`} data-testid="member-buy" onClick={() => root.openPurchase('member', { category })}>
            {isPlatformMember(using) ? '续费会员' : '开通会员'}
          </button>
        </div>
        <GrantDialog member={member} />
      </div>
    </>
  );
});

/** commerce.md §2.9 "Member grant": '{name}每日专享', '免费游戏时长 +N小时', '开心收下'. */
export const GrantDialog = observer(function GrantDialog({ member }: { member: MemberStore }) {
  const g = member.grant;
  if (!g) return null;
  return (
    <Modal
      title={g.title}
      testId="member-grant"
      width={380}
      onClose={() => member.closeGrant()}
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="member-grant-ok" onClick={() => member.closeGrant()}>
          开心收下
        </button>
      }
    >
      <p className="member-grant__hours" data-testid="member-grant-hours">
        免费游戏时长 +{g.hours}小时
      </p>
      <p className="member-grant__note">{g.note}</p>
    </Modal>
  );
});
