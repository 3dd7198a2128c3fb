import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useStores } from '../stores/context';
import { SITE_NAME } from '../../../lib/site';
import { memberButton } from '../../../lib/memberButton';
import { AdSlot } from '../../../components/AdSlot';
import '../../member/member.css';

/** The check-in and task entries: a chunk of their own, so the home page's scripts stay small. */
const MissionHeader = lazy(() => import('../../mission/components/MissionHeader'));
/** The messages entry, its dot and the message centre's dialog: a chunk of their own. */
const MessageHeader = lazy(() => import('../../message/components/MessageHeader'));
/** The signed-in user's menu and its popover: a chunk of their own, loaded only once signed in. */
const UserMenu = lazy(() => import('./UserMenu'));

interface NavItem {
  to: string;
  label: string;
  active(path: string): boolean;
}

/** social.md §2.2: 首页, 游戏库 (also on detail pages), 一起玩, 我的. */
const NAV: NavItem[] = [
  { to: '/', label: '首页', active: (p) => p === '/' },
  { to: '/game', label: '游戏库', active: (p) => p === '/game' || p.startsWith('/game/detail') },
  { to: '/game/live', label: '一起玩', active: (p) => p.startsWith('/game/live') },
  { to: '/user', label: '我的', active: (p) => p === '/user' || p.startsWith('/user/') },
];

export const Header = observer(function Header() {
  const { user, ui } = useStores();
  const { pathname } = useLocation();
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 8);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <header className={`header${scrolled ? ' is-scrolled' : ''}`}>
      <div className="header__inner">
        <Link to="/" className="logo" aria-label={SITE_NAME}>
          <img src="/favicon.svg" alt="" className="logo__mark" />
          <span className="logo__text">{SITE_NAME}</span>
        </Link>
        <nav className="nav">
          {NAV.map((item) => (
            <Link key={item.to} to={item.to} className={`nav__link${item.active(pathname) ? ' is-active' : ''}`}>
              {item.label}
            </Link>
          ))}
        </nav>
        <SearchBox />
        {user.ready && <MemberButton />}
        {user.ready && (
          <Suspense fallback={null}>
            <MessageHeader />
          </Suspense>
        )}
        {user.ready && (
          <Suspense fallback={null}>
            <MissionHeader />
          </Suspense>
        )}
        {user.ready && <AdSlot slot="header_right" />}
        <div className="header__user">
          {!user.ready ? (
            <span className="header__placeholder" />
          ) : user.isLoggedIn ? (
            <Suspense fallback={<span className="header__placeholder" />}>
              <UserMenu />
            </Suspense>
          ) : (
            <button type="button" className="btn btn--primary btn--sm" data-testid="header-login" onClick={() => ui.openLogin()}>
              登录
            </button>
          )}
        </div>
      </div>
    </header>
  );
});

/**
 * commerce.md §2.2: 立即登录 for a guest, 查看 for a carrier-partner member (their page),
 * 续费会员 for a member, else 开通会员; buying opens the member purchase on the user's category.
 */
const MemberButton = observer(function MemberButton() {
  const root = useStores();
  const navigate = useNavigate();
  const b = memberButton(root.user.isLoggedIn, root.user.profile?.member_info?.using);
  const onClick = () => {
    if (b.action === 'login') root.ui.openLogin();
    else if (b.action === 'carrier') navigate('/user/member');
    else root.openPurchase('member', { category: b.category });
  };
  return (
    <div className="header-member-pop">
      <button type="button" className={`btn btn--sm header__member header__member--${b.style}`} data-testid="header-member" onClick={onClick}>
        {b.label}
      </button>
      <ul className="popover header-member-pop__popover" data-testid="header-member-popover">
        <li>每日免费会员时长</li>
        <li>会员专属排队通道</li>
        <li>
          <Link to="/user/member">更多特权</Link>
        </li>
      </ul>
    </div>
  );
});

/** social.md §2.3: Enter or the search button goes to /game?page=1&keyword=... */
function SearchBox() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const urlKeyword = pathname === '/game' ? (params.get('keyword') ?? '') : '';
  const [keyword, setKeyword] = useState(urlKeyword);
  // the URL's keyword changed (back, a link): the box follows it
  const [shownFor, setShownFor] = useState(urlKeyword);
  if (shownFor !== urlKeyword) {
    setShownFor(urlKeyword);
    setKeyword(urlKeyword);
  }

  const search = (kw: string) => {
    navigate(`/game?page=1&keyword=${encodeURIComponent(kw.trim())}`);
  };

  return (
    <form
      className="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search(keyword);
      }}
    >
      <input
        className="search__input"
        data-testid="search-input"
        type="search"
        placeholder="搜索游戏"
        value={keyword}
        onChange={(e) => {
          setKeyword(e.target.value);
          // clearing the keyword on the game route re-runs the search
          if (!e.target.value && pathname === '/game' && urlKeyword) search('');
        }}
      />
      <button type="submit" className="search__button" aria-label="搜索" data-testid="search-button">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </form>
  );
}
