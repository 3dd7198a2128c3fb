import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import type { PrivilegeRowView } from '../../../api/types';
import { isPlatformMember } from '../../../lib/member';
import { useStores } from '../stores/context';
import { MemberPanel, useMemberStore } from '../../member/components/MemberPanel';
import { AgreementList } from '../../member/components/AgreementList';
import '../../member/member.css';

function cell(v: PrivilegeRowView['vip']): string {
  if (v === true) return '✓';
  if (v === false) return '—';
  return String(v);
}

/**
 * /user/member, /user/member/vip, /user/member/vvip: the privilege comparison (normal / vip /
 * vvip, commerce.md §6) and the buy buttons that open the membership purchase.
 */
export const MemberPage = observer(function MemberPage() {
  const root = useStores();
  const { tier } = useParams();
  const member = useMemberStore();
  useEffect(() => {
    void member.loadPrivileges();
  }, [member]);
  const using = root.user.profile?.member_info?.using;
  const holds = (c: 'vip' | 'vvip') => isPlatformMember(using) && (c === 'vvip' ? using === 'vvip' || using === 'hvip' : using === 'vip');
  const title = tier === 'vvip' ? '高级会员' : tier === 'vip' ? '标准会员' : '会员中心';
  const table = member.privileges;
  return (
    <div className="page container" data-testid="member-page">
      <h1 className="status-page__title">{title}</h1>
      {root.user.isLoggedIn && <MemberPanel />}
      {root.user.isLoggedIn && <AgreementList />}
      {!isPlatformMember(using) && <p className="member-page__hint">开通标准会员，每天免费领1小时游戏时长</p>}
      <div className="member-page__actions">
        {tier !== 'vvip' && (
          <button type="button" className="btn header__member--vip" data-testid="member-buy-vip" onClick={() => root.openPurchase('member', { category: 'vip' })}>
            {holds('vip') ? '续费会员' : '开通会员'} · 标准会员
          </button>
        )}
        {tier !== 'vip' && (
          <button type="button" className="btn header__member--vvip" data-testid="member-buy-vvip" onClick={() => root.openPurchase('member', { category: 'vvip' })}>
            {holds('vvip') ? '续费会员' : '开通会员'} · 高级会员
          </button>
        )}
      </div>
      {table && (
        <table className="privilege-table" data-testid="privilege-table">
          <thead>
            <tr>
              <th>会员特权</th>
              <th>普通用户</th>
              <th>标准会员</th>
              <th>高级会员</th>
            </tr>
          </thead>
          <tbody>
            {table.list.map((r) => (
              <tr key={r.code} className={r.gray ? 'is-gray' : undefined} data-testid="privilege-row">
                <td>{r.title.text}</td>
                <td>{cell(r.normal)}</td>
                <td>{cell(r.vip)}</td>
                <td>{cell(r.vvip)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
});
