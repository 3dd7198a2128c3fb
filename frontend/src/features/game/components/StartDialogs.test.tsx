// The start steps' dialogs as the player sees them (core-platform.md §2.14): the game tip with
// its yoodo amount highlighted, its ad and '当前游戏版本不再提醒'; the unsupported game's 138 px QR
// code of the share link; the start guide's games, latency and '下一步' after the animation.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreProvider } from '../../../kernel/storeContext';
import type { RootStore } from '../../../stores/rootStore';
import { loggedInRoot, settle } from '../../../test/helpers';
import { GameOverlays } from './GameOverlays';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function mount(store: RootStore) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  act(() =>
    root.render(
      <StoreProvider store={store}>
        <MemoryRouter>
          <GameOverlays />
        </MemoryRouter>
      </StoreProvider>,
    ),
  );
  return { host, unmount: () => act(() => root.unmount()) };
}

const byTestId = (host: HTMLElement, id: string) => host.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('start step dialogs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  // the tip: text, yoodo line with the amount highlighted, the ad's target_title, the checkbox; 开始游戏 answers true
  it('the game tip', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/startTip', () => ({
      tip: '夜间场景较暗',
      tipExt: JSON.stringify({ id: 5, title: 'x', target_title: '排队加速卡', image: '', target_type: 5, target_value: 'accelerate_card', need_login: true }),
      yoodo: '60',
      yoodoText: '时长不足时，可消耗%s悠豆/小时继续畅玩',
    }));
    const { host, unmount } = mount(root);
    const answered = (await root.game.loadSteps()).tipAllowsStart({ id: 13, name: '灯塔之夜' });
    await vi.waitFor(() => expect(byTestId(host, 'game-tip')).not.toBeNull());
    const dialog = byTestId(host, 'game-tip')!;
    expect(dialog.textContent).toContain('温馨提示');
    expect(byTestId(host, 'game-tip-text')?.textContent).toBe('夜间场景较暗');
    expect(byTestId(host, 'game-tip-yoodo')?.textContent).toBe('时长不足时，可消耗60悠豆/小时继续畅玩');
    expect(dialog.querySelector('.game-tip__amount')?.textContent).toBe('60');
    expect(byTestId(host, 'game-tip-ad')?.textContent).toBe('排队加速卡');
    expect(dialog.textContent).toContain('当前游戏版本不再提醒');
    act(() => byTestId(host, 'game-tip-start')!.click());
    expect(await answered).toBe(true);
    expect(byTestId(host, 'game-tip')).toBeNull();
    unmount();
    root.dispose();
  });

  // the unsupported game: the text, a 138 px QR code of the share link, 扫码立即体验
  it('the unsupported game', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/share/game/links', () => ({ links: 'http://127.0.0.1:8080/game/detail/26' }));
    const { host, unmount } = mount(root);
    await act(async () => (await root.game.loadSteps()).showUnsupported({ id: 26, name: '掌上菜园' }));
    const dialog = byTestId(host, 'unsupported-game')!;
    expect(dialog.textContent).toContain('这是一款手游，请使用移动端体验');
    expect(dialog.textContent).toContain('扫码立即体验');
    const qr = dialog.querySelector('svg')!;
    expect([qr.getAttribute('width'), qr.getAttribute('height'), qr.getAttribute('data-text')]).toEqual(['138', '138', 'http://127.0.0.1:8080/game/detail/26']);
    unmount();
    root.dispose();
  });

  // the guide: 7 games, the latency, 下一步 disabled until the animation is over
  it('the start guide', async () => {
    const { root, t } = await loggedInRoot();
    const games = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `游戏${i + 1}`, image: '', image_vertical: '', image_square: '', logo: '', status: 1, deleted: false, available: true, collected: false, member_type: null, instant_play: false }));
    t.api.on('POST', '/api/japi/yoo/common/config/list', () => ({ show_game_start_guide: '1', game_start_guide_max_delay: '200' }));
    t.api.on('GET', '/api/web/v1/game/list', () => ({ data: games, total: 7 }));
    t.api.on('POST', '/api/japi/yoo/game/node', () => [{ id: 1, name: '测试一区', status: 1, pingUrl: '/api/node/1/ping', pingIp: '', ip: '' }]);
    t.probeResults.set('/api/node/1/ping', 42);
    const { host, unmount } = mount(root);
    const answered = (await root.game.loadSteps()).startGuideAllows();
    await vi.waitFor(() => expect(byTestId(host, 'start-guide-latency')?.textContent).toBe('当前网络延迟 42ms'));
    expect(host.querySelectorAll('[data-testid="start-guide-game"]')).toHaveLength(7);
    const next = byTestId(host, 'start-guide-next') as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4500);
    });
    expect(next.disabled).toBe(false);
    expect(next.textContent).toBe('下一步');
    act(() => next.click());
    expect(await answered).toBe(true);
    await settle();
    unmount();
    root.dispose();
  });
});
