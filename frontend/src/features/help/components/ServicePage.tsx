import { useEffect, useState } from 'react';
import { useStores } from '../stores/context';

/** /service: the service centre (core-platform.md §2.4's 无法绑定？ and 问题反馈 lead here). */
export function ServicePage() {
  const { api } = useStores();
  const [kfUrl, setKfUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.post('/api/japi/social/kf').then(
      (r) => live && setKfUrl(r.kfUrl),
      () => live && setKfUrl(null),
    );
    return () => {
      live = false;
    };
  }, [api]);
  return (
    <div className="page container" data-testid="service-page">
      <h1>客服中心</h1>
      <p>账号、绑定、充值或游戏中遇到问题，请联系客服，我们会尽快为您处理。</p>
      {kfUrl && (
        <a className="btn btn--primary" href={kfUrl} data-testid="service-kf" rel="noreferrer">
          联系客服
        </a>
      )}
    </div>
  );
}
