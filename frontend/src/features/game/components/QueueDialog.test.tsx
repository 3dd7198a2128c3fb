import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreProvider } from '../../../kernel/storeContext';
import { GameStatus } from '../../../api/codes';
import type { RootStore } from '../../../stores/rootStore';
import { live, loggedInRoot, settle } from '../../../test/helpers';
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

describe('queue dialog and game float', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('normal lane: rank, queue name, the upsell card, the notice text, 排队规则 and the ad slot', async () => {
    const { root, t, channel } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/gameChannelSize', () => ({ preSort: 1, waitDuration: 90, isFast: 3 }));
    t.api.on('GET', '/api/v3/user/card/list', () => ({ total: 0, data: [] }));
    t.api.on('POST', '/api/japi/yoo/common/config/list', () => ({ web: '0', delay_show_code_time: '30', delay_show_reserve_time: '60' }));
    const { host, unmount } = mount(root);
    await act(async () => {
      channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 4, isFast: 0, gameLogo: '/logo.png' }));
      await settle();
    });
    const dialog = byTestId(host, 'queue-dialog')!;
    expect(dialog.textContent).toContain('游戏排队');
    expect(byTestId(host, 'queue-rank')!.textContent).toBe('排队中，当前第 4 位');
    expect(byTestId(host, 'queue-lane')!.textContent).toBe('普通队列');
    expect(byTestId(host, 'upsell-tier')!.textContent).toBe('VVIP专属通道');
    expect(byTestId(host, 'upsell-text')!.textContent).toBe('预计排名第2位，等待时间少于2分钟');
    expect(byTestId(host, 'queue-notice')!.textContent).toBe('排队完成后将自动为您启动游戏');
    expect(byTestId(host, 'queue-rules')!.getAttribute('href')).toBe('/help/queue');
    expect(byTestId(host, 'ad-gift_game_dialog')).not.toBeNull();
    expect(dialog.querySelector('img')).not.toBeNull();

    // 收起: the float shows the rank and 立即加速 with the VVIP wording
    act(() => byTestId(host, 'queue-minimise')!.click());
    await act(async () => settle());
    expect(byTestId(host, 'queue-dialog')).toBeNull();
    expect(byTestId(host, 'float-queue')!.textContent).toContain('排队中 第4位');
    expect(byTestId(host, 'float-icon')!.getAttribute('data-icon')).toBe('queue');
    expect(byTestId(host, 'float-accelerate')!.textContent).toBe('VVIP专属加速 立即加速');
    expect(byTestId(host, 'ad-gift_game_float')).not.toBeNull();
    unmount();
    root.dispose();
  });

  it('member fast entry: no logo, 已享受速进通道, no ad slot; an owned card shows its expiry', async () => {
    const { root, t, channel } = await loggedInRoot();
    t.api.on('GET', '/api/v3/user/card/list', () => ({
      total: 2,
      data: [
        { id: 5, goods_title: '速进卡（1次）', expires_at: Date.UTC(2025, 5, 30, 15, 59), status: 0 },
        { id: 6, goods_title: '速进卡（1次）', expires_at: Date.UTC(2025, 6, 30, 15, 59), status: 0 },
      ],
    }));
    const { host, unmount } = mount(root);
    await act(async () => {
      channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 3, isFast: 0 }));
      await settle();
    });
    expect(byTestId(host, 'card-title')!.textContent).toBe('速进卡（1次）');
    expect(byTestId(host, 'card-expiry')!.textContent).toBe('有效期至 2025-06-30 23:59');
    expect(byTestId(host, 'card-use')!.textContent).toBe('立即使用');
    expect(byTestId(host, 'card-more')!.textContent).toBe('查看更多速进卡');

    await act(async () => {
      channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, isFast: 1 }));
      await settle();
    });
    const dialog = byTestId(host, 'queue-dialog')!;
    expect(dialog.querySelector('img')).toBeNull();
    expect(byTestId(host, 'lane-card')!.textContent).toBe('已享受速进通道');
    expect(byTestId(host, 'ad-gift_game_dialog')).toBeNull();
    unmount();
    root.dispose();
  });
});
