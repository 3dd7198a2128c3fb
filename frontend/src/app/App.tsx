import { Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { HomePage } from '../features/home/components/HomePage';
import { StoreProvider } from '../stores/context';
import type { RootStore } from '../stores/rootStore';
import { AppShell } from './AppShell';
import { lazyPage } from './lazyPage';

// Every route but the home page is its own chunk, loaded on the first visit (the home page's
// scripts stay under 100 KB gzipped: scripts/check-bundle.mjs, run by `npm run build`).
const GameListPage = lazyPage(() => import('../features/catalogue/components/GameListPage'), 'GameListPage');
const GameDetailPage = lazyPage(() => import('../features/catalogue/components/GameDetailPage'), 'GameDetailPage');
const PlayPage = lazyPage(() => import('../features/game/components/PlayPage'), 'PlayPage');
const QueueRulesPage = lazyPage(() => import('../features/help/components/QueueRulesPage'), 'QueueRulesPage');
const LivePage = lazyPage(() => import('../features/live/components/LivePage'), 'LivePage');
const RoomPage = lazyPage(() => import('../features/live/components/RoomPage'), 'RoomPage');
const MemberPage = lazyPage(() => import('../features/user/components/MemberPage'), 'MemberPage');
const HistoryPage = lazyPage(() => import('../features/user/components/HistoryPage'), 'HistoryPage');
const BackpackPage = lazyPage(() => import('../features/backpack/components/BackpackPage'), 'BackpackPage');
const UserPage = lazyPage(() => import('../features/user/components/UserPage'), 'UserPage');
const NotFoundPage = lazyPage(() => import('../features/layout/components/NotFoundPage'), 'NotFoundPage');
const OldBrowserPage = lazyPage(() => import('../features/layout/components/OldBrowserPage'), 'OldBrowserPage');

/** Routes of core-platform.md §2.1 that exist so far; everything else is the 404 page. */
export function App({ store }: { store: RootStore }) {
  return (
    <StoreProvider store={store}>
      <BrowserRouter>
        <Routes>
          <Route
            path="/ie/download"
            element={
              <Suspense fallback={null}>
                <OldBrowserPage />
              </Suspense>
            }
          />
          <Route element={<AppShell />}>
            <Route index element={<HomePage />} />
            <Route path="game" element={<GameListPage />} />
            <Route path="game/detail/:id" element={<GameDetailPage />} />
            <Route path="game/play" element={<PlayPage />} />
            <Route path="game/live" element={<LivePage />} />
            <Route path="game/live/:id" element={<RoomPage />} />
            <Route path="help/queue" element={<QueueRulesPage />} />
            <Route path="user/member" element={<MemberPage />} />
            <Route path="user/history" element={<HistoryPage />} />
            <Route path="user/card" element={<BackpackPage />} />
            <Route path="user/*" element={<UserPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </StoreProvider>
  );
}
