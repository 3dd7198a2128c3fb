// How components reach the stores: the app (src/main.tsx) provides its root store once; each
// feature reads it through its own hook, typed by what that feature needs (an interface the
// feature declares in its stores/context.ts). The app checks that its root store provides every
// feature's interface (src/app/provides.ts), so the cast below is sound; and no feature names the
// root store's type, so the features' arrows stay those they declare.
import { createContext, useContext, type ReactNode } from 'react';
import type { AppServices } from './services';

const StoreContext = createContext<object | null>(null);

export function StoreProvider({ store, children }: { store: object; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

function useRootStore(): object {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStores outside StoreProvider');
  return store;
}

/** The root store, seen as `T`: a feature's hook (`export const useStores = storesHook<MyStores>()`). */
export function storesHook<T extends object>(): () => T {
  return useRootStore as () => T;
}

/** The services every feature may count on (the shared components' hook). */
export const useServices = storesHook<AppServices>();
