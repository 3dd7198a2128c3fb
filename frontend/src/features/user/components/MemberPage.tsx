import { Link } from 'react-router';

/** /user/member: membership purchase arrives with the shop; until then a placeholder. */
export function MemberPage() {
  return (
    <div className="status-page" data-testid="member-page">
      <h1 className="status-page__title">会员中心</h1>
      <p className="status-page__text">开通会员功能即将上线，敬请期待</p>
      <Link to="/" className="btn btn--primary">
        返回首页
      </Link>
    </div>
  );
}
