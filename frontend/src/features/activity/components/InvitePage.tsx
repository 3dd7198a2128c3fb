import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import type { InviteData, InviteRecords, InviteRewardDto } from '../../../api/types';
import { useStores } from '../stores/context';
import { errorMessage } from '../../../transport/apiError';
import { keepInviteCode } from '../../../lib/inviteCode';
import '../activity.css';

function Rewards({ title, list, testId }: { title: string; list: InviteRewardDto[]; testId: string }) {
  return (
    <div className="invite__rewards" data-testid={testId}>
      <h2 className="invite__subtitle">{title}</h2>
      <ul>
        {list.map((r) => (
          <li key={r.name} className="invite__reward">
            {r.name}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The invite activity (commerce.md §2.16): /invite and /land/invite for a logged-in user (their
 * code and link, counts, rewards, rules); a landing page with ?invite_code= (or /invitePromote/{code})
 * keeps the code for the registration and asks a guest to register.
 */
export const InvitePage = observer(function InvitePage({ landing = false }: { landing?: boolean }) {
  const { api, ui, user } = useStores();
  const { search } = useLocation();
  const { id } = useParams();
  const [data, setData] = useState<InviteData | null>(null);
  const [rule, setRule] = useState('');
  const loggedIn = user.isLoggedIn;
  const recordPath = landing ? '/land/invite/record' : '/invite/record';

  useEffect(() => {
    keepInviteCode(new URLSearchParams(search).get('invite_code') ?? id);
  }, [search, id]);
  useEffect(() => {
    let live = true;
    api.get('/api/v3/activity/invite').then(
      (d) => live && setData(d),
      (e: unknown) => ui.error(errorMessage(e)),
    );
    api.get('/api/v3/activity/invite/rule').then(
      (r) => live && setRule(r.content),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, ui, loggedIn]);

  const link = data?.invite_link ? `${window.location.origin}${data.invite_link}` : '';
  const copy = () => {
    navigator.clipboard.writeText(link).then(
      () => ui.success('复制成功'),
      () => ui.error('复制失败'),
    );
  };
  return (
    <div className="page container invite" data-testid="invite-page">
      <h1 className="invite__title">邀请好友 一起畅玩</h1>
      {data && (
        <div className="invite__reward-box">
          <Rewards title="好友注册 · 基础奖励" list={data.invite_config.basic_rewards} testId="invite-basic" />
          <Rewards title="好友首次购买 · 进阶奖励" list={data.invite_config.advanced_rewards} testId="invite-advanced" />
        </div>
      )}
      {loggedIn && data?.invite_code ? (
        <div className="invite__mine">
          <p>
            我的邀请码 <b data-testid="invite-code">{data.invite_code}</b>
          </p>
          <p className="invite__link">
            <span data-testid="invite-link">{link}</span>
            <button type="button" className="btn btn--sm" onClick={copy}>
              复制链接
            </button>
          </p>
          <p>
            已邀请 <b data-testid="invite-count">{data.invited_count}</b> 人，其中 {data.advanced_count} 人已完成首次购买
          </p>
          <Link to={recordPath} className="btn btn--ghost btn--sm" data-testid="invite-records-link">
            邀请记录
          </Link>
        </div>
      ) : (
        <button type="button" className="btn btn--primary" data-testid="invite-register" onClick={() => ui.openLogin()}>
          立即注册领取
        </button>
      )}
      {rule && (
        <section className="invite__rule">
          <h2 className="invite__subtitle">活动规则</h2>
          {rule.split('\n').map((line) => (
            <p key={line}>{line}</p>
          ))}
        </section>
      )}
    </div>
  );
});

/** /invite/record, /land/invite/record: the friends the user invited, by status filter. */
export const InviteRecordPage = observer(function InviteRecordPage() {
  const { api, ui, user } = useStores();
  const [status, setStatus] = useState(0);
  const [filters, setFilters] = useState<InviteData['filterStatus']>([]);
  const [records, setRecords] = useState<InviteRecords | null>(null);
  const loggedIn = user.isLoggedIn;
  useEffect(() => {
    if (!loggedIn) return undefined;
    let live = true;
    api.get('/api/v3/activity/invite').then(
      (d) => live && setFilters(d.filterStatus),
      () => undefined,
    );
    api.get('/api/v3/activity/invite/record', { status, page: 1 }).then(
      (r) => live && setRecords(r),
      (e: unknown) => ui.error(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [api, ui, loggedIn, status]);
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看邀请记录</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  return (
    <div className="page container invite" data-testid="invite-record-page">
      <h1 className="invite__title">邀请记录</h1>
      <div className="invite__filters" role="tablist">
        {filters.map((f) => (
          <button
            key={f.value}
            type="button"
            role="tab"
            aria-selected={status === f.value}
            className={`lottery__tab${status === f.value ? ' is-active' : ''}`}
            onClick={() => setStatus(f.value)}
          >
            {f.label}
          </button>
        ))}
      </div>
      {records && records.rows.length === 0 && <p className="lottery__empty">暂无记录</p>}
      <ul className="lottery__list" data-testid="invite-records">
        {records?.rows.map((r) => (
          <li key={`${r.phone}-${r.register_time}`} className="lottery__row">
            <span>{r.phone}</span>
            <span>{r.status === 2 ? '已首购' : '已注册'}</span>
            <span className="lottery__time">{r.register_time}</span>
          </li>
        ))}
      </ul>
    </div>
  );
});

/** /land/invite and /invitePromote/{code}: the landing page that carries an invite code. */
export function LandInvitePage() {
  return <InvitePage landing />;
}
