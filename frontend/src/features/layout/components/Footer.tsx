import { useLocation } from 'react-router';
import { SITE_NAME } from '../../../lib/site';

export function Footer() {
  const { pathname } = useLocation();
  if (pathname.startsWith('/game/play')) return null; // the play page fills the window
  return (
    <footer className="footer">
      <p>抵制不良游戏，拒绝盗版游戏。注意自我保护，谨防受骗上当。适度游戏益脑，沉迷游戏伤身。合理安排时间，享受健康生活。</p>
      <p className="footer__copy">© {new Date().getFullYear()} {SITE_NAME}</p>
    </footer>
  );
}
