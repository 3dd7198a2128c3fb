import { BrowserRouter, Route, Routes } from 'react-router';
import { GameDetailPage } from '../features/catalogue/components/GameDetailPage';
import { GameListPage } from '../features/catalogue/components/GameListPage';
import { PlayPage } from '../features/game/components/PlayPage';
import { QueueRulesPage } from '../features/help/components/QueueRulesPage';
import { HomePage } from '../features/home/components/HomePage';
import { NotFoundPage } from '../features/layout/components/NotFoundPage';
import { OldBrowserPage } from '../features/layout/components/OldBrowserPage';
import { LivePage } from '../features/live/components/LivePage';
import { MemberPage } from '../features/user/components/MemberPage';
import { UserPage } from '../features/user/components/UserPage';
import { StoreProvider } from '../stores/context';
import type { RootStore } from '../stores/rootStore';
import { AppShell } from './AppShell';

/** Routes of core-platform.md §2.1 that exist so far; everything else is the 404 page. */
export function App({ store }: { store: RootStore }) {
  return (
    <StoreProvider store={store}>
      <BrowserRouter>
        <Routes>
          <Route path="/ie/download" element={<OldBrowserPage />} />
          <Route element={<AppShell />}>
            <Route index element={<HomePage />} />
            <Route path="game" element={<GameListPage />} />
            <Route path="game/detail/:id" element={<GameDetailPage />} />
            <Route path="game/play" element={<PlayPage />} />
            <Route path="game/live" element={<LivePage />} />
            <Route path="game/live/:id" element={<LivePage />} />
            <Route path="help/queue" element={<QueueRulesPage />} />
            <Route path="user/member" element={<MemberPage />} />
            <Route path="user/*" element={<UserPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </StoreProvider>
  );
}
