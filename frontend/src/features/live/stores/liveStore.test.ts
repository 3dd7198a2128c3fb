import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { loggedInRoot, settle } from '../../../test/helpers';
import { RoomPaths } from './roomStore';
import { LiveStore, RELAY_NOTICE_DELAY_MS, RELAY_NOTICE_TEXT } from './liveStore';

const T0 = new Date('2026-01-01T12:00:00Z').getTime();
const GAMES = [
  { id: 4, name: '荒原求生' },
  { id: 1, name: '极速滚球' },
];

/** A logged-in root whose server can create room 77 for game 4. */
async function relayRoot(profile: { status?: number } = {}) {
  const env = await loggedInRoot({ profile });
  const t = env.t;
  t.api.on('POST', RoomPaths.relayCheck, () => null);
  t.api.on('POST', RoomPaths.params, () => ({ roomName: '玩家10001的房间', roomModes: [{ mode: 2, name: '一起玩', desc: '大家一起看，可申请控制' }], password: '' }));
  t.api.on('GET', '/api/web/v1/game/list', () => ({ data: GAMES, total: 2 }));
  t.api.on('POST', RoomPaths.relay, () => ({ ddRid: 77, roomSerial: 7001, uuid: 'u' }));
  t.api.on('POST', RoomPaths.loginRelayRoom, () => fail(130300, '房间不存在')); // the entry itself is RoomStore's test
  t.api.on('POST', '/api/japi/yoo/game/selectNode', () => [{ id: 1, name: '测试一区', status: 1, pingUrl: 'http://n1/ping' }]);
  return { ...env, live: new LiveStore(env.root) };
}

describe('LiveStore: start relay (social.md §4.3)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    window.localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  // super admins are refused before any call
  it('refuses a super admin', async () => {
    const { live, root, t } = await relayRoot({ status: 3 });
    await live.openRelay();
    expect(root.ui.toasts.at(-1)?.message).toBe('超管暂不支持创建房间');
    expect(t.api.callsTo(RoomPaths.relayCheck)).toHaveLength(0);
    expect(live.dialog).toBeNull();
  });

  // a game played only together (core-platform.md §4.4 step 10): the dialog opens with the game
  // fixed, in its room mode, saying why
  it('opens for a game played only together', async () => {
    const { live, t } = await relayRoot();
    t.api.on('POST', RoomPaths.params, () => ({
      roomName: '玩家10001的房间',
      roomModes: [
        { mode: 2, name: '一起玩', desc: '' },
        { mode: 4, name: '手柄模式', desc: '' },
      ],
      password: '',
    }));
    await live.openRelay({ id: 16, name: '雷鸣小队' }, { mode: 4 });
    expect(live.dialog?.notice).toBe('当前游戏仅支持一起玩，请先完善游戏的房间信息');
    expect(live.dialog?.form).toMatchObject({ gameId: 16, mode: 4 });
    expect(live.dialog?.gamePreset).toEqual({ id: 16, name: '雷鸣小队' });
    live.closeRelay();
    await live.openRelay();
    expect(live.dialog?.notice).toBeNull();
  });

  // USER_NOT_RELAY: the alert with the server's message
  it('shows the relay-check refusal', async () => {
    const { live, root, t } = await relayRoot();
    t.api.on('POST', RoomPaths.relayCheck, () => fail(20154, '暂无一起玩资格'));
    const opening = live.openRelay();
    await settle();
    expect(root.ui.messageBoxes[0]).toMatchObject({ title: '温馨提示', message: '暂无一起玩资格', confirmText: '好的' });
    root.ui.messageBoxes[0].resolve(true);
    await opening;
    expect(live.dialog).toBeNull();
  });

  // the form: prefilled name, first mode, first game; §5 rules; base64 password with isUpdatePass
  it('validates and submits the form, then the relay start goes to the node picker', async () => {
    const { live, root, t } = await relayRoot();
    await live.openRelay();
    await settle();
    expect(live.dialog?.form).toMatchObject({ roomName: '玩家10001的房间', mode: 2, gameId: 4, password: '', isShow: true });
    live.setForm({ roomName: '' });
    await live.submitRelay();
    expect(live.dialog?.error).toBe('房间名称不能为空');
    live.setForm({ roomName: '一起来玩', password: '12' });
    await live.submitRelay();
    expect(live.dialog?.error).toBe('密码格式不正确');
    live.setForm({ password: '2468' });
    await live.submitRelay();
    await settle();
    expect(t.api.callsTo(RoomPaths.relay)[0].body).toEqual({ roomName: '一起来玩', mode: 2, gameId: 4, isShow: 1, isUpdatePass: 1, password: 'MjQ2OA==', authType: 2 });
    expect(live.dialog).toBeNull();
    expect(root.game.nodePicker).toMatchObject({ gameId: 4, relay: { isApplyRelay: 2, isUpdatePass: 1, isShow: 1, roomPassword: 'MjQ2OA==' } });
  });

  // ROOM_NOT_EDITABLE: the message, the server's default name, submitted again
  it('resubmits with the default name on 130011', async () => {
    const { live, t } = await relayRoot();
    let calls = 0;
    t.api.on('POST', RoomPaths.relay, (body) => {
      calls++;
      if (body.roomName !== '玩家10001的房间') fail(130011, '房间名称不可用');
      return { ddRid: 77, roomSerial: 7001 };
    });
    await live.openRelay();
    await settle();
    live.setForm({ roomName: '不可用的名字' });
    await live.submitRelay();
    await settle();
    expect(calls).toBe(2);
    expect(t.api.callsTo(RoomPaths.relay)[1].body).toMatchObject({ roomName: '玩家10001的房间' });
  });

  // GAME_RELAY_EXIST: the host of an open room is taken to it instead of a dead-end error
  it('takes the host of an open room to it on 130442', async () => {
    const { live, t, root, navigations } = await relayRoot();
    t.api.on('POST', RoomPaths.relay, () => fail(130442, '您已开启一起玩房间，请先退出房间', { ddRid: 31 }));
    await live.openRelay();
    await settle();
    await live.submitRelay();
    await settle();
    expect(live.dialog).toBeNull();
    expect(navigations).toContain('/game/live/31');
    expect(root.ui.toasts.map((x) => x.message)).toContain('您已开启一起玩房间，请先退出房间');
  });

  // the public-beta notice: once per user, 1.2 s after the check
  it('shows the public-beta notice once per user', async () => {
    const { live, root } = await relayRoot();
    await live.openRelay();
    await vi.advanceTimersByTimeAsync(RELAY_NOTICE_DELAY_MS);
    expect(root.ui.messageBoxes.map((b) => b.message)).toEqual([RELAY_NOTICE_TEXT]);
    root.ui.messageBoxes[0].resolve(true);
    live.closeRelay();
    await live.openRelay();
    await vi.advanceTimersByTimeAsync(RELAY_NOTICE_DELAY_MS);
    expect(root.ui.messageBoxes).toHaveLength(0);
  });

  // the list: rooms with heat, one relay-count read for the games on the page
  it('loads the list and the relay counts', async () => {
    const { live, t } = await relayRoot();
    t.api.on('POST', RoomPaths.list, () => ({
      totalRows: 2,
      rows: [
        { room: { ddRid: 1 }, game: { id: 4, name: '荒原求生' }, heat: 12345 },
        { room: { ddRid: 2 }, game: { id: 4, name: '荒原求生' }, heat: 9 },
      ],
    }));
    t.api.on('POST', RoomPaths.relayCount, () => ({ '4': 2 }));
    await live.loadList(1);
    expect(t.api.callsTo(RoomPaths.relayCount)[0].body).toEqual({ gameIds: [4] });
    expect(live.countOf(4)).toBe(2);
    expect(live.countOf(1)).toBe(0);
  });
});
