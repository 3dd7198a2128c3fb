import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <div className="status-page" data-testid="not-found">
      <div className="status-page__code">404</div>
      <h1 className="status-page__title">This page could not be found</h1>
      <p className="status-page__text">页面不存在</p>
      <Link to="/" className="btn btn--primary">
        返回首页
      </Link>
    </div>
  );
}
