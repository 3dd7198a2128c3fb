import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Header } from '../../layout/components/Header';
import { StoreProvider } from '../../../kernel/storeContext';
import { makeRoot } from '../../../test/helpers';
import { UserPage } from './UserPage';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('play time shown to the player', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  // the user centre and the header's user popover both show one hour as '60分钟' (commerce.md §9)
  it('shows 60 minutes as 60分钟 in the user centre and the header', async () => {
    const { root: store } = await makeRoot({ loggedIn: true, profile: { play_time_total: 60 } });
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    act(() =>
      root.render(
        <StoreProvider store={store}>
          <MemoryRouter>
            <Header />
            <UserPage />
          </MemoryRouter>
        </StoreProvider>,
      ),
    );
    expect(host.querySelector('[data-testid="profile-play-time"]')!.textContent).toBe('60分钟');
    // the header's user menu is a chunk of its own
    await vi.waitFor(() => expect(host.querySelector('[data-testid="header-user"]')).not.toBeNull());
    act(() => host.querySelector<HTMLElement>('[data-testid="header-user"]')!.click());
    expect(host.querySelector('[data-testid="user-play-time"]')!.textContent).toContain('游戏时长 60分钟');
    act(() => root.unmount());
    store.dispose();
  });
});
