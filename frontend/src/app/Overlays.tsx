import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect } from 'react';
import { CaptchaDialog } from '../features/auth/components/CaptchaDialog';
import { LoginDialog } from '../features/auth/components/LoginDialog';
import { CarActionDialog } from '../features/layout/components/CarActionDialog';
import { CertificationDialog } from '../features/identity/components/CertificationDialog';
import { GameOverlays } from '../features/game/components/GameOverlays';
import { LiveOverlays } from '../features/live/components/LiveOverlays';
import { PlayTimeDialogs } from '../features/playtime/components/PlayTimeDialogs';
import { PopupChain } from '../features/member/components/PopupChain';
import { useStores } from './provides';

/** The purchase dialog's code, fetched with its store on the first purchase opened. */
const PurchaseDialog = lazy(async () => ({ default: (await import('../features/purchase/components/PurchaseDialog')).PurchaseDialog }));

/**
 * The dialogs a guest needs only once the login dialog opens, and a logged-in player at any time:
 * one chunk, loaded on demand by the app shell. The registration gift and the login dialog are in
 * the same chunk, so the gift opens in the same frame as the login dialog closes.
 */
export function Overlays() {
  // the play page's chunk is fetched ahead: a notice pushed as the game starts must find the play
  // page mounted, not wait for its code (NoticeStore routes it by the page on screen)
  useEffect(() => {
    void import('../features/game/components/PlayPage').catch(() => undefined);
  }, []);
  return (
    <>
      <LoginDialog />
      <GameOverlays />
      <LiveOverlays />
      <PlayTimeDialogs />
      <PurchaseHost />
      <CarActionDialog />
      <CertificationDialog />
      <PopupChain />
      {/* last: the security check shows over whichever dialog asked for it */}
      <CaptchaDialog />
    </>
  );
}

/** Mounts the purchase dialog once its store exists (RootStore.openPurchase loaded it). */
const PurchaseHost = observer(function PurchaseHost() {
  const { purchase } = useStores();
  if (!purchase) return null;
  return (
    <Suspense fallback={null}>
      <PurchaseDialog />
    </Suspense>
  );
});
