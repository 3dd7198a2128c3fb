import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { isInCar, isOldBrowser, OLD_BROWSER_PATH } from './lib/browserCheck';
import { browserEffects } from './lib/notify';
import { RootStore } from './stores/rootStore';
import { createBrowserTransport } from './transport/browserTransport';
import './styles/global.css';

const oldBrowser = isOldBrowser(navigator.userAgent);
if (oldBrowser && !window.location.pathname.startsWith('/ie/download')) {
  window.location.replace(OLD_BROWSER_PATH);
} else {
  // in-car mode (core-platform.md §4.14): what it hides and the fixed width are styles.css's
  if (isInCar(navigator.userAgent)) document.documentElement.classList.add('in-car');
  const store = new RootStore(createBrowserTransport(), browserEffects());
  void store.init();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
