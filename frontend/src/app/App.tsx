import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { HomePage } from '../features/home/components/HomePage';
import { AdSlotViewProvider, type AdSlotProps } from '../components/AdSlot';
import { StoreProvider } from '../kernel/storeContext';
import type { RootStore } from '../stores/rootStore';
import { AppShell } from './AppShell';
import { lazyPage } from '../lib/lazyPage';

// Every route but the home page is its own chunk, loaded on the first visit (the home page's
// scripts stay under 100 KB gzipped: scripts/check-bundle.mjs, run by `npm run build`).
/** what fills the ad slots (components/AdSlot): the activity feature's view, its own chunk */
const AdSlotView = lazy(() => import('../features/activity/components/AdSlotView'));
const renderAdSlot = (props: AdSlotProps) => <AdSlotView {...props} />;
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
const ActivityPage = lazyPage(() => import('../features/coupon/components/ActivityPage'), 'ActivityPage');
const LotteryPage = lazyPage(() => import('../features/activity/components/LotteryPage'), 'LotteryPage');
const InvitePage = lazyPage(() => import('../features/activity/components/InvitePage'), 'InvitePage');
const InviteRecordPage = lazyPage(() => import('../features/activity/components/InvitePage'), 'InviteRecordPage');
const LandInvitePage = lazyPage(() => import('../features/activity/components/InvitePage'), 'LandInvitePage');
const MessagePage = lazyPage(() => import('../features/message/components/MessagePage'), 'MessagePage');
const MissionPage = lazyPage(() => import('../features/mission/components/MissionPage'), 'MissionPage');
const PackagePage = lazyPage(() => import('../features/package/components/PackagePage'), 'PackagePage');
const BillPage = lazyPage(() => import('../features/bill/components/BillPage'), 'BillPage');
const ServicePage = lazyPage(() => import('../features/help/components/ServicePage'), 'ServicePage');
const IdauthPage = lazyPage(() => import('../features/identity/components/IdauthPage'), 'IdauthPage');
const ChildrenPage = lazyPage(() => import('../features/identity/components/ChildrenPage'), 'ChildrenPage');
const SubscriptionPage = lazyPage(() => import('../features/package/components/SubscriptionPages'), 'SubscriptionPage');
const LoginPage = lazyPage(() => import('../features/auth/components/LoginPage'), 'LoginPage');
const SubscriptionZonePage = lazyPage(() => import('../features/package/components/SubscriptionPages'), 'SubscriptionZonePage');
const CouponGroupRoutes = lazyPage(() => import('../features/couponGroup/components/CouponGroupPages'), 'CouponGroupRoutes');

/** Routes of core-platform.md §2.1 that exist so far; everything else is the 404 page. */
export function App({ store }: { store: RootStore }) {
  return (
    <StoreProvider store={store}>
      <AdSlotViewProvider value={renderAdSlot}>
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
              <Route path="user/card/:tab" element={<BackpackPage />} />
              <Route path="user/member/:tier" element={<MemberPage />} />
              <Route path="user/package" element={<PackagePage />} />
              <Route path="children" element={<ChildrenPage />} />
              <Route path="message" element={<MessagePage />} />
              <Route path="qrcode/certification/*" element={<IdauthPage />} />
              <Route path="service" element={<ServicePage />} />
              <Route path="login" element={<LoginPage />} />
              <Route path="user/bill" element={<BillPage />} />
              <Route path="user/bill/:tab" element={<BillPage />} />
              <Route path="user/subscription" element={<SubscriptionPage />} />
              <Route path="subscription/:id" element={<SubscriptionZonePage />} />
              <Route path="user/*" element={<UserPage />} />
              <Route path="activity/coupon" element={<ActivityPage />} />
              <Route path="coupon-group/*" element={<CouponGroupRoutes />} />
              <Route path="*" element={<NotFoundPage />} />
              <Route path="land/lottery" element={<LotteryPage />} />
              <Route path="invite" element={<InvitePage />} />
              <Route path="invite/record" element={<InviteRecordPage />} />
              <Route path="invitePromote/:id" element={<LandInvitePage />} />
              <Route path="land/invite" element={<LandInvitePage />} />
              <Route path="land/invite/record" element={<InviteRecordPage />} />
              <Route path="user/mission" element={<MissionPage />} />
              <Route path="game/section" element={<GameListPage />} />
            </Route>
          </Routes>
        </BrowserRouter>
      </AdSlotViewProvider>
    </StoreProvider>
  );
}
