import { Outlet } from 'react-router';
import { MessageBoxHost } from '../components/MessageBoxHost';
import { Toasts } from '../components/Toasts';
import { LoginDialog } from '../features/auth/components/LoginDialog';
import { GameOverlays } from '../features/game/components/GameOverlays';
import { Footer } from '../features/layout/components/Footer';
import { Header } from '../features/layout/components/Header';
import { NavigationBridge } from '../features/layout/components/NavigationBridge';
import { PlayTimeDialogs } from '../features/playtime/components/PlayTimeDialogs';

/** The page frame: header, the routed page, and the dialogs every page can show. */
export function AppShell() {
  return (
    <div className="app">
      <NavigationBridge />
      <Header />
      <main className="main">
        <Outlet />
      </main>
      <Footer />
      <LoginDialog />
      <GameOverlays />
      <PlayTimeDialogs />
      <MessageBoxHost />
      <Toasts />
    </div>
  );
}
