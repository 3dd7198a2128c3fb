import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RoomEventCode } from '../../../api/codes';
import { StoreProvider } from '../../../kernel/storeContext';
import type { RootStore } from '../../../stores/rootStore';
import { RoomPaths } from '../stores/roomStore';
import { fail } from '../../../test/fakeTransport';
import { loggedInRoot, PROFILE, roomBatch, settle } from '../../../test/helpers';
import { LiveOverlays } from './LiveOverlays';
import { RoomPage } from './RoomPage';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DD = 501;
const HOST = 20002;

function mount(store: RootStore, path = `/game/live/${DD}`) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  act(() =>
    root.render(
      <StoreProvider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/game/live/:id" element={<RoomPage />} />
            <Route path="*" element={<div data-testid="elsewhere" />} />
          </Routes>
          <LiveOverlays />
        </MemoryRouter>
      </StoreProvider>,
    ),
  );
  return { host, unmount: () => act(() => root.unmount()) };
}

const byTestId = (host: HTMLElement, id: string) => host.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const allByTestId = (host: HTMLElement, id: string) => [...host.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

/** A room server: room DD of HOST, `online` members, an optional password. */
async function roomServer(opts: { online?: number; password?: string; host?: number; mode?: number } = {}) {
  const env = await loggedInRoot();
  const info = () => ({
    room: {
      ddRid: DD,
      roomSerial: 9001,
      roomName: '一起来玩',
      mode: opts.mode ?? 2,
      isShow: 1,
      hasPassword: !!opts.password,
      userId: opts.host ?? HOST,
      host: { userId: HOST, nickname: '主播', displayName: '主播', avatar: '', status: 0, member: null },
      gameStatus: 0,
      controller: 0,
      online: opts.online ?? 3,
      rotation: { on: false, turnSecs: 300, current: null, queue: [], turnEndsAt: null },
      createdAt: 0,
      ended: false,
    },
    game: { id: 4, name: '荒原求生', logo: '', people: 1 },
    epoch: 'e1',
    offset: 0,
    serverTime: 0,
    chatMaxChars: 150,
  });
  env.t.api.on('POST', RoomPaths.loginRelayRoom, (body) => {
    if (opts.password && body.password !== btoa(opts.password)) fail(body.password ? 130202 : 130201, body.password ? '房间密码错误' : '请输入房间密码');
    return { status: 1, gameType: 4, ...info() };
  });
  env.t.api.on('POST', RoomPaths.info, info);
  env.t.api.on('POST', RoomPaths.mikeList, () => ({ mikeList: [], mikeStatus: 0, mikeSubStatus: 0, controlStatus: 0, isOpenMike: true, isMikeReq: false, gameStatus: 1 }));
  env.t.api.on('POST', RoomPaths.userList, () => ({ totalRows: opts.online ?? 3, rows: [{ userId: HOST, nickname: '主播', displayName: '主播', avatar: '', status: 0, member: null }] }));
  env.t.api.on('POST', RoomPaths.controlApplyList, () => []);
  env.t.api.on('POST', RoomPaths.liveDetail, () => ({ roomSerial: 9001, ddRid: DD, type: 0, liveDuration: 12, audienceCount: 3, mikeCount: 1, controlCount: 2, giftLogList: [] }));
  return env;
}

describe('room page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('enters and shows the room, 99+ online, chat and barrage (on by default)', async () => {
    const { root, channel } = await roomServer({ online: 150 });
    const { host, unmount } = mount(root);
    await act(async () => settle());
    expect(byTestId(host, 'room-name')?.textContent).toBe('一起来玩');
    expect(byTestId(host, 'room-online-count')?.textContent).toBe('在线 99+');
    expect(byTestId(host, 'room-waiting')?.textContent).toBe('等待主播开始游戏');
    // the chat box takes what the server's room takes
    expect((byTestId(host, 'chat-input') as HTMLInputElement).maxLength).toBe(150);
    await act(async () => {
      channel.push(roomBatch(DD, 'e1', [{ offset: 1, code: RoomEventCode.CHAT, msg: 'CHAT', desc: '', data: JSON.stringify({ userId: 7, nickname: '小明', text: '好[微笑.png]' }), userIds: [], excludeUserIds: [], ts: 0 }]));
    });
    expect(allByTestId(host, 'chat-item').map((e) => e.textContent)).toEqual(['小明：好[微笑]']);
    expect(allByTestId(host, 'barrage-item').map((e) => e.textContent)).toEqual(['好[微笑]']);
    act(() => byTestId(host, 'barrage-toggle')!.click());
    expect(byTestId(host, 'room-barrage')).toBeNull();
    // a viewer: apply for control, no host tools
    expect(byTestId(host, 'control-apply')?.textContent).toBe('申请控制');
    expect(byTestId(host, 'room-settings')).toBeNull();
    unmount();
  });

  it('asks for the password and shows a wrong one', async () => {
    const { root } = await roomServer({ password: '1234' });
    const { host, unmount } = mount(root);
    await act(async () => settle());
    const prompt = byTestId(host, 'room-password')!;
    expect(prompt.textContent).toContain('验证房间密码');
    const input = byTestId(host, 'room-password-input') as HTMLInputElement;
    const type = (v: string) => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    await act(async () => {
      byTestId(host, 'room-password-submit')!.click();
      await settle();
    });
    expect(byTestId(host, 'room-password-error')?.textContent).toBe('密码不能为空');
    act(() => type('9999'));
    await act(async () => {
      byTestId(host, 'room-password-submit')!.click();
      await settle();
    });
    expect(byTestId(host, 'room-password-error')?.textContent).toBe('房间密码错误');
    act(() => type('1234'));
    await act(async () => {
      byTestId(host, 'room-password-submit')!.click();
      await settle();
    });
    expect(byTestId(host, 'room-password')).toBeNull();
    expect(byTestId(host, 'room-name')?.textContent).toBe('一起来玩');
    unmount();
  });

  it('the host sees the tools and the summary after ending the room', async () => {
    const { root, t } = await roomServer({ host: PROFILE.uid });
    t.api.on('POST', RoomPaths.exit, () => ({ ddRid: DD, roomSerial: 9001 }));
    const { host, unmount } = mount(root);
    await act(async () => settle());
    expect(byTestId(host, 'room-settings')).not.toBeNull();
    expect(byTestId(host, 'rotation-toggle')).not.toBeNull();
    expect(byTestId(host, 'room-exit')?.textContent).toBe('结束直播');
    // the host is told about their own game, not asked to wait for "the host"
    expect(byTestId(host, 'room-waiting')?.textContent).toBe('开始游戏后，观众将看到你的游戏画面');
    await act(async () => {
      byTestId(host, 'room-exit')!.click();
      await settle();
    });
    const summary = byTestId(host, 'live-summary')!;
    expect(summary.textContent).toContain('直播时长 12 分钟');
    expect(summary.textContent).toContain('本次直播未收到礼物，下次加油呀~');
    unmount();
  });

  it('an address that names no room says so instead of loading forever', async () => {
    for (const path of ['/game/live/abc', '/game/live/0', '/game/live/-3']) {
      const { root, t } = await roomServer();
      const { host, unmount } = mount(root, path);
      await act(async () => settle());
      expect(byTestId(host, 'room-loading'), path).toBeNull();
      expect(byTestId(host, 'room-error-text')?.textContent, path).toBe('房间不存在或已结束');
      expect(t.api.callsTo(RoomPaths.loginRelayRoom), path).toEqual([]);
      unmount();
    }
  });

  it('names the hand mode as the create dialog does', async () => {
    const { root } = await roomServer({ mode: 4 });
    const { host, unmount } = mount(root);
    await act(async () => settle());
    expect(host.querySelector('.room__mode')?.textContent).toBe('手柄模式');
    unmount();
  });
});
