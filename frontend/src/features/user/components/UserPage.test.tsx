import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
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
    // the header's user menu is a chunk of its own: it loads inside act, so that React's
    // update when it arrives is not reported after the test (the warning once outlived the
    // test file's environment and failed the run)
    for (let i = 0; i < 100 && !host.querySelector('[data-testid="header-user"]'); i++) {
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    }
    expect(host.querySelector('[data-testid="header-user"]')).not.toBeNull();
    act(() => host.querySelector<HTMLElement>('[data-testid="header-user"]')!.click());
    expect(host.querySelector('[data-testid="user-play-time"]')!.textContent).toContain('游戏时长 60分钟');
    // whatever else loads lazily lands inside act, before the test ends
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    act(() => root.unmount());
    store.dispose();
  });
});
