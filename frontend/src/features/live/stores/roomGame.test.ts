import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { loggedInRoot, PROFILE, settle } from '../../../test/helpers';
import { RoomPaths } from './roomStore';

const DD = 501;
const SELECT_NODE = '/api/japi/yoo/game/selectNode';

/** A logged-in user in room DD (hosting it when `host`), whose game is 荒原求生 (4). */
async function inRoom(host: boolean) {
  const env = await loggedInRoot();
  const info = {
    room: {
      ddRid: DD,
      roomSerial: 9001,
      roomName: '一起来玩',
      mode: 2,
      isShow: 1,
      hasPassword: false,
      userId: host ? PROFILE.uid : 20002,
      host: { userId: 20002, nickname: '主播', displayName: '主播', avatar: '', status: 0, member: null },
      gameStatus: 5,
      controller: 0,
      online: 2,
      rotation: { on: false, turnSecs: 300, current: null, queue: [], turnEndsAt: null },
      createdAt: 0,
      ended: false,
    },
    game: { id: 4, name: '荒原求生', logo: '', people: 1 },
    epoch: 'e1',
    offset: 0,
    serverTime: 0,
  };
  env.t.api.on('POST', RoomPaths.loginRelayRoom, () => ({ status: 1, gameType: host ? 2 : 4, ...info }));
  env.t.api.on('POST', RoomPaths.info, () => info);
  env.t.api.on('POST', RoomPaths.mikeList, () => ({ mikeList: [], mikeStatus: 0, mikeSubStatus: 0, controlStatus: 0, isOpenMike: true, isMikeReq: false, gameStatus: 5 }));
  env.t.api.on('POST', RoomPaths.userList, () => ({ totalRows: 2, rows: [] }));
  env.t.api.on('POST', RoomPaths.controlApplyList, () => []);
  env.t.api.on('POST', RoomPaths.mikeReqList, () => []);
  env.t.api.on('POST', RoomPaths.connection, () => ({ status: 5, sessionId: null, streamUrl: null, ticket: null, controller: false }));
  env.t.api.on('POST', RoomPaths.exit, () => ({ ddRid: DD, roomSerial: null }));
  env.t.api.on('POST', SELECT_NODE, () => [{ id: 1, name: '测试一区', status: 1, pingUrl: 'http://n1/ping' }]);
  const room = await env.root.loadRoom();
  await room.enter(DD);
  await settle();
  return { ...env, room };
}

describe('a game start while in a room (social.md §2.16, §4.3, §8)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  // the host is asked: 立即切换 starts the new game as the room's relay
  it('a relay host switches together', async () => {
    const { root, t } = await inRoom(true);
    const starting = root.game.requestStart({ id: 1, name: '极速滚球' });
    await settle();
    expect(root.ui.messageBoxes[0]).toMatchObject({
      title: '切换游戏',
      message: '大家正在一起玩《荒原求生》，是否一起切换到新游戏？',
      confirmText: '立即切换',
      cancelText: '自己玩',
    });
    root.ui.messageBoxes[0].resolve(true);
    await starting;
    await settle();
    expect(t.api.callsTo(RoomPaths.exit)).toHaveLength(0);
    expect(root.game.nodePicker).toMatchObject({ gameId: 1, relay: { isApplyRelay: 2, isUpdatePass: 0, isShow: 1 } });
  });

  // core-platform.md §4.4 step 10: the host's new game cannot be played in the room's mode
  // (game/info's supportModes): the not-supported confirm; confirmed, the room is exited and the
  // game starts alone; declined, nothing happens
  it('a relay host starting a game not played in this room mode is asked to leave the room', async () => {
    const { root, t } = await inRoom(true);
    t.api.on('POST', '/api/japi/yoo/game/info', () => ({ id: 1, name: '极速滚球', startMode: 0, supportModes: [4], associatedType: 1, startUrl: '' }));
    const declined = root.game.requestStart({ id: 1, name: '极速滚球' });
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '当前游戏暂不支持一起玩', detail: '启动游戏后将退出一起玩的游戏' });
    root.ui.messageBoxes[0].resolve(false);
    await declined;
    expect(t.api.callsTo(RoomPaths.exit)).toHaveLength(0);
    expect(root.game.nodePicker).toBeNull();

    await vi.advanceTimersByTimeAsync(1000);
    const confirmed = root.game.requestStart({ id: 1, name: '极速滚球' });
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    root.ui.messageBoxes[0].resolve(true);
    await confirmed;
    await settle();
    expect(t.api.callsTo(RoomPaths.exit)).toHaveLength(1);
    expect(root.game.nodePicker).toMatchObject({ gameId: 1 });
    expect(root.game.nodePicker?.relay).toBeUndefined();
  });

  // 自己玩: the room is exited first, then a plain start
  it('a relay host plays alone', async () => {
    const { root, t } = await inRoom(true);
    const starting = root.game.requestStart({ id: 1, name: '极速滚球' });
    await settle();
    root.ui.messageBoxes[0].resolve(false);
    await starting;
    await settle();
    expect(t.api.callsTo(RoomPaths.exit)).toHaveLength(1);
    expect(root.game.nodePicker).toMatchObject({ gameId: 1 });
    expect(root.game.nodePicker?.relay).toBeUndefined();
  });

  // a viewer without control starts without being asked
  it('a viewer without control is not asked', async () => {
    const { root, t } = await inRoom(false);
    await root.game.requestStart({ id: 1, name: '极速滚球' });
    await settle();
    expect(root.ui.messageBoxes).toHaveLength(0);
    expect(t.api.callsTo(SELECT_NODE)).toHaveLength(1);
  });

  // 130442 at start: confirmed, the room is left and the start runs again
  it('130442 leaves the room and starts again', async () => {
    const { root, t } = await inRoom(false);
    let starts = 0;
    t.api.on('POST', '/api/japi/yoo/game/start', () => {
      starts++;
      if (starts === 1) fail(130442, '您已开启一起玩房间，请先退出房间');
      return { hasGameOnline: false };
    });
    const starting = root.game.start({ gameId: 1, gameName: '极速滚球', nodeId: 1 });
    await settle();
    expect(root.ui.messageBoxes[0].message).toBe('您已开启一起玩房间，请先退出房间');
    root.ui.messageBoxes[0].resolve(true);
    await starting;
    await settle();
    expect(t.api.callsTo(RoomPaths.exit)).toHaveLength(1);
    expect(starts).toBe(2);
  });
});
