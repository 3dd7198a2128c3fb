import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { MessageBoxHost } from '../components/MessageBoxHost';
import { Toasts } from '../components/Toasts';
import { AdActionSlot } from '../features/activity/components/AdActionSlot';
import { Footer } from '../features/layout/components/Footer';
import { Header } from '../features/layout/components/Header';
import { NavigationBridge } from '../features/layout/components/NavigationBridge';
import { useStores } from './provides';
import { RouteErrorBoundary } from './RouteErrorBoundary';

const loadOverlays = () => import('./Overlays');
const Overlays = lazy(async () => ({ default: (await loadOverlays()).Overlays }));
/** a guest's browser fetches the dialogs' chunk this long after the first render, when idle */
export const OVERLAYS_PREFETCH_MS = 2000;

/**
 * The page frame: header, the routed page (its chunk loads behind a placeholder), and the dialogs
 * every page can show. The login, game and play-time dialogs are one chunk, mounted once the user
 * is logged in or opens the login dialog (a guest's browser prefetches it when idle).
 */
export function AppShell() {
  const { pathname } = useLocation();
  return (
    <div className="app">
      <NavigationBridge />
      <Header />
      <main className="main">
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<div className="page-loading" data-testid="page-loading" aria-busy="true" />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      <OnDemandOverlays />
      <MessageBoxHost />
      <Toasts />
      <AdActionSlot />
    </div>
  );
}

const OnDemandOverlays = observer(function OnDemandOverlays() {
  const { user, ui } = useStores();
  const needed = user.isLoggedIn || ui.loginOpen || ui.carAction !== null;
  useEffect(() => {
    if (needed) return;
    const t = setTimeout(() => {
      const idle = (window as { requestIdleCallback?: (cb: () => void) => void }).requestIdleCallback;
      const fetchIt = () => void loadOverlays().catch(() => undefined);
      if (idle) idle(fetchIt);
      else fetchIt();
    }, OVERLAYS_PREFETCH_MS);
    return () => clearTimeout(t);
  }, [needed]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Overlays />
    </Suspense>
  );
});
