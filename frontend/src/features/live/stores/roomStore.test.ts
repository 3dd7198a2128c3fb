import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { loggedInRoot, PROFILE, roomBatch, settle } from '../../../test/helpers';
import { RoomEventCode } from '../../../api/codes';
import { ApplyState, BARRAGE_MAX, BarrageColor, RoomLoad, type RoomEventItem } from '../../../lib/room';
import { RoomPaths } from './roomStore';
import type { RoomEventData } from '../../../api/codes';

const T0 = new Date('2026-01-01T12:00:00Z').getTime();
const ME = PROFILE.uid;
const HOST = 20002;
const DD = 501;
/** the test server's apply-control durations (its configuration) */
const PENDING_MS = 45_000;
const DENIED_MS = 90_000;

let nextOffset = 1;
const ev = (code: number, data: Record<string, unknown> = {}, more: Partial<RoomEventItem> = {}): RoomEventItem => ({
  offset: nextOffset++,
  code,
  msg: '',
  desc: '',
  data: JSON.stringify(data),
  userIds: [],
  excludeUserIds: [],
  ts: 0,
  ...more,
});
/** An event whose data has the server's type for its code (a changed schema fails the type check). */
const typed = <C extends keyof RoomEventData>(code: C, data: RoomEventData[C], more: Partial<RoomEventItem> = {}) => ev(code, data as unknown as Record<string, unknown>, more);
const user = (userId: number, nickname: string, displayName = nickname) => ({ userId, nickname, displayName, avatar: '', status: 0, member: null });
const chat = (text: string, userId = 30003, nickname = '观众') => ev(RoomEventCode.CHAT, { text, userId, nickname });

/** A logged-in root with a scripted room server: room DD hosted by HOST, stream at epoch e1 offset 10. */
async function roomRoot(opts: { host?: number } = {}) {
  const env = await loggedInRoot();
  const server = {
    password: null as string | null,
    epoch: 'e1',
    offset: 10,
    online: 3,
    controllerId: 0,
    /** the caller's apply-control state as the server keeps it (its deadline in server ms) */
    apply: { state: 0, until: null as number | null },
    /** how far the server's clock is ahead of the browser's */
    clockAheadMs: 0,
    rotation: { on: false, turnSecs: 300, current: null as number | null, queue: [] as number[], turnEndsAt: 0 },
  };
  const host = opts.host ?? HOST;
  const info = () => ({
    room: {
      ddRid: DD,
      roomSerial: 9001,
      roomName: '一起来玩',
      mode: 2,
      isShow: 1,
      hasPassword: server.password !== null,
      userId: host,
      host: { userId: host, nickname: '主播', displayName: '主播', avatar: '', status: 0, member: null },
      gameStatus: 1,
      controller: server.controllerId,
      online: server.online,
      rotation: server.rotation,
      createdAt: T0,
      ended: false,
    },
    game: { id: 1, name: '测试游戏', logo: '', people: 1 },
    epoch: server.epoch,
    offset: server.offset,
    serverTime: T0,
    chatMaxChars: 200,
  });
  env.t.api.on('POST', RoomPaths.loginRelayRoom, (body) => {
    if (server.password !== null) {
      if (!body.password) fail(130201, '请输入房间密码');
      if (body.password !== btoa(server.password)) fail(130202, '房间密码错误');
    }
    return { status: 1, gameType: 4, ...info() };
  });
  env.t.api.on('POST', RoomPaths.info, info);
  env.t.api.on('POST', RoomPaths.mikeList, () => ({ mikeList: [], mikeStatus: 0, mikeSubStatus: 0, controlStatus: 0, isOpenMike: true, isMikeReq: false, gameStatus: 1, applyControl: server.apply }));
  env.t.api.on('POST', RoomPaths.userList, () => ({ totalRows: server.online, rows: [] }));
  env.t.api.on('POST', RoomPaths.controlApplyList, () => []);
  // the server's configured pending time, not the spec's 30 s: the client must not assume it
  env.t.api.on('POST', RoomPaths.controlApply, () => (server.apply = { state: 1, until: Date.now() + server.clockAheadMs + PENDING_MS }));
  env.t.api.on('POST', RoomPaths.liveDetail, (body) => ({ roomSerial: body.roomSerial, type: 0, liveDuration: 12, audienceCount: 3, giftLogList: [] }));
  env.t.api.on('POST', RoomPaths.exit, () => ({ ddRid: DD, roomSerial: host === ME ? 9001 : null }));
  const room = await env.root.loadRoom();
  return { ...env, server, room };
}

async function entered(opts: { host?: number } = {}) {
  const env = await roomRoot(opts);
  await env.room.enter(DD);
  await settle();
  nextOffset = 11;
  return env;
}

describe('RoomStore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    nextOffset = 1;
  });
  afterEach(() => vi.useRealTimers());

  // entry reads the room and watches from the answer's position
  it('enters, reads the room and watches from the position of the answer', async () => {
    const { room, channel, t } = await entered();
    expect(room.load).toBe(RoomLoad.SUCCESS);
    expect(room.info?.room.roomName).toBe('一起来玩');
    expect(room.members.onlineCount).toBe(3);
    expect(t.api.callsTo(RoomPaths.loginRelayRoom)[0].body).toEqual({ ddRid: DD, mode: 1, invitable: 1 });
    expect(channel.roomFrames).toEqual([{ kind: 'watch', ddRid: DD, epoch: 'e1', afterOffset: 10 }]);
  });

  // §2.13: 130201 opens the prompt, a wrong password keeps it with the server's text, the right one enters
  it('asks for the password, refuses a wrong one and enters with the right one (base64)', async () => {
    const { room, server, t } = await roomRoot();
    server.password = '4321';
    await room.enter(DD);
    await settle();
    expect(room.passwordPrompt).toEqual({ ddRid: DD, message: null });
    expect(await room.submitPassword('12')).toBe('密码格式不正确');
    expect(await room.submitPassword('')).toBe('密码不能为空');
    await room.submitPassword('1111');
    await settle();
    expect(room.passwordPrompt).toEqual({ ddRid: DD, message: '房间密码错误' });
    await room.submitPassword('4321');
    await settle();
    expect(room.passwordPrompt).toBeNull();
    expect(room.load).toBe(RoomLoad.SUCCESS);
    expect(t.api.callsTo(RoomPaths.loginRelayRoom).at(-1)!.body).toMatchObject({ password: 'NDMyMQ==' });
  });

  // §4.5: 130203/130204/130443 confirm, then the same entry with force 1
  it.each([130203, 130204, 130443])('confirms %d and retries with force', async (code) => {
    const { root, room, t } = await roomRoot();
    let refused = false;
    t.api.on('POST', RoomPaths.loginRelayRoom, (body) => {
      if (!body.force) {
        refused = true;
        fail(code, '你已在其他房间，是否退出并进入该房间？');
      }
      return { status: 1, epoch: 'e1', offset: 0 }; // read as far as the store reads an entry
    });
    const entering = room.enter(DD);
    await settle();
    expect(refused).toBe(true);
    expect(root.ui.messageBoxes).toHaveLength(1);
    root.ui.messageBoxes[0].resolve(true);
    await entering;
    await settle();
    expect(t.api.callsTo(RoomPaths.loginRelayRoom).at(-1)!.body).toMatchObject({ force: 1 });
    expect(room.load).toBe(RoomLoad.SUCCESS);
  });

  it('shows the error view for a room that does not exist', async () => {
    const { room, t } = await roomRoot();
    t.api.on('POST', RoomPaths.loginRelayRoom, () => fail(130300, '房间不存在'));
    await room.enter(DD);
    expect(room.load).toBe(RoomLoad.ERROR);
    expect(room.error).toEqual({ code: 130300, message: '房间不存在' });
  });

  // events apply once each, in offset order; a resent duplicate changes nothing
  it('applies events by offset and drops duplicates', async () => {
    const { room, channel } = await entered();
    const a = chat('第一条');
    const b = chat('第二条');
    channel.push(roomBatch(DD, 'e1', [a, b]));
    channel.push(roomBatch(DD, 'e1', [b]));
    channel.push(roomBatch(DD, 'e1', [a, b, chat('第三条')]));
    expect(room.talk.chat.map((c) => c.text)).toEqual(['第一条', '第二条', '第三条']);
    expect(room.offset).toBe(13);
    // another room's events are not this room's
    channel.push(roomBatch(DD + 1, 'e1', [chat('别处')]));
    expect(room.talk.chat).toHaveLength(3);
  });

  // a hole in the offsets: refetch, and watch again from the refetched position
  it('refetches and watches again after a gap', async () => {
    const { room, channel, server, t } = await entered();
    const infoReads = t.api.callsTo(RoomPaths.info).length;
    server.offset = 20;
    nextOffset = 15;
    channel.push(roomBatch(DD, 'e1', [chat('跳过了')]));
    await settle();
    expect(t.api.callsTo(RoomPaths.info).length).toBe(infoReads + 1);
    expect(room.talk.chat).toHaveLength(0);
    expect(channel.roomFrames.at(-1)).toEqual({ kind: 'watch', ddRid: DD, epoch: 'e1', afterOffset: 20 });
  });

  // ROOM_RESET: room info, mike and online are read again; the watch restarts at the reset's position
  it('refetches after ROOM_RESET and watches from its position', async () => {
    const { room, channel, server, t } = await entered();
    const reads = [RoomPaths.info, RoomPaths.mikeList, RoomPaths.userList].map((p) => t.api.callsTo(p).length);
    server.online = 120;
    channel.push({ kind: 'roomReset', ddRid: DD, epoch: 'e2', offset: 7 });
    await settle();
    expect([RoomPaths.info, RoomPaths.mikeList, RoomPaths.userList].map((p) => t.api.callsTo(p).length)).toEqual(reads.map((n) => n + 1));
    expect(room.epoch).toBe('e2');
    expect(room.offset).toBe(7);
    expect(room.members.onlineCount).toBe(120);
    expect(channel.roomFrames.at(-1)).toEqual({ kind: 'watch', ddRid: DD, epoch: 'e2', afterOffset: 7 });
    nextOffset = 8;
    channel.push(roomBatch(DD, 'e2', [chat('新纪元')]));
    expect(room.talk.chat.map((c) => c.text)).toEqual(['新纪元']);
  });

  // a dropped socket: on reopen the watch resumes after the last applied offset
  it('resumes the watch after the last offset when the socket comes back', async () => {
    const { room, channel } = await entered();
    channel.push(roomBatch(DD, 'e1', [chat('一'), chat('二')]));
    channel.drop();
    channel.reopen();
    expect(channel.roomFrames.at(-1)).toEqual({ kind: 'watch', ddRid: DD, epoch: 'e1', afterOffset: 12 });
    // the server resends from 13 (and a copy of 12): each shows once
    nextOffset = 12;
    channel.push(roomBatch(DD, 'e1', [chat('二'), chat('三')]));
    expect(room.talk.chat.map((c) => c.text)).toEqual(['一', '二', '三']);
  });

  // targeted events reach only the users they name
  it('ignores events targeted at someone else', async () => {
    const { room, channel } = await entered();
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_DENY, {}, { userIds: [ME + 1], desc: '被拒绝' })]));
    expect(room.control.applyState).toBe(ApplyState.NONE);
    expect(room.offset).toBe(11);
  });

  // §4.7: the apply state and its deadline are the server's: the apply call's answer, and after a
  // denial the mike info's; the 1 s tick returns to 0 at the deadline
  it('counts the apply state down to the server\'s deadlines (pending from the apply answer, denied from the mike info)', async () => {
    const { root, room, channel, server } = await entered();
    await room.control.applyControl();
    expect(room.control.applyState).toBe(ApplyState.PENDING);
    expect(room.control.applySecondsLeft).toBe(45);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(room.control.applySecondsLeft).toBe(35);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(room.control.applyState).toBe(ApplyState.NONE);

    await room.control.applyControl();
    server.apply = { state: 2, until: Date.now() + server.clockAheadMs + DENIED_MS };
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_DENY, {}, { userIds: [ME], desc: '主播拒绝了你的申请' })]));
    expect(root.ui.toasts.at(-1)?.message).toBe('主播拒绝了你的申请');
    await settle();
    // the denial as the re-read mike info serves it
    expect(room.control.applyState).toBe(ApplyState.DENIED);
    expect(room.control.applySecondsLeft).toBe(90);
    // a second application is refused while the state shows
    expect(await room.control.applyControl()).toBe(false);
    await vi.advanceTimersByTimeAsync(89_000);
    expect(room.control.applyState).toBe(ApplyState.DENIED);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(room.control.applyState).toBe(ApplyState.NONE);
  });

  it('reads the server\'s deadline on the browser\'s clock (the skew corrected)', async () => {
    const { root, room, server } = await entered();
    // the server's clock is 5 minutes ahead
    server.clockAheadMs = 300_000;
    root.game.noteServerTime((Date.now() + server.clockAheadMs) / 1000);
    await room.control.applyControl();
    expect(room.control.applySecondsLeft).toBe(45);
    // the mike info agreeing on the state moves the deadline to the server's
    server.apply = { state: 1, until: Date.now() + server.clockAheadMs + 20_000 };
    await room.seats.loadMike();
    expect(room.control.applySecondsLeft).toBe(20);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(room.control.applyState).toBe(ApplyState.NONE);
  });

  // CONTROL_ON: state 0, and the refetched info names this user controller
  it('gains control on CONTROL_ON and loses it on CONTROL_OFF', async () => {
    const { root, room, channel, server } = await entered();
    await room.control.applyControl();
    // granted: the server's apply state is over
    server.controllerId = ME;
    server.apply = { state: 0, until: null };
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_ON, {}, { userIds: [ME] })]));
    await settle();
    expect(room.control.applyState).toBe(ApplyState.NONE);
    expect(room.hasControl).toBe(true);
    server.controllerId = HOST;
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_OFF, {}, { userIds: [ME] })]));
    await settle();
    expect(room.hasControl).toBe(false);
    expect(root.ui.toasts.at(-1)?.message).toBe('当前用户被收回控制权');
  });

  // §4.9/§9: the barrage keeps the last 500; [name.ext] is stripped; own lines get the stroke; colours
  it('caps the barrage at 500 with the colours of §9', async () => {
    const { room, channel } = await entered();
    const events = [];
    for (let i = 0; i < BARRAGE_MAX + 20; i++) events.push(chat(`消息${i}`));
    channel.push(roomBatch(DD, 'e1', events));
    expect(room.talk.barrage).toHaveLength(BARRAGE_MAX);
    expect(room.talk.barrage[0].text).toBe('消息20');
    channel.push(roomBatch(DD, 'e1', [chat('[微笑.png]好', ME, '我'), ev(RoomEventCode.ROOM_ENTER, { nickname: '小明', userId: 3 })]));
    const own = room.talk.barrage.at(-2)!;
    expect(own).toMatchObject({ text: '[微笑]好', color: BarrageColor.DEFAULT, stroke: 2, strokeColor: '#F52846' });
    expect(room.talk.barrage.at(-1)).toMatchObject({ text: '小明 进入房间', color: '#94F7C5', stroke: 0 });
    // a busy room's batch: five entries carried as one event, its offsets covered without a gap
    const merged = ev(RoomEventCode.ROOM_ENTER, { nickname: '小红', userId: 4, count: 5 });
    nextOffset += 4;
    channel.push({ kind: 'roomEvents', ddRid: DD, epoch: 'e1', first: merged.offset, last: merged.offset + 4, events: [merged] });
    expect(room.talk.barrage.at(-1)).toMatchObject({ text: '小红 等5人进入房间' });
    channel.push(roomBatch(DD, 'e1', [chat('之后')]));
    expect(room.talk.barrage.at(-1)).toMatchObject({ text: '之后' });
    expect(room.talk.barrageOn).toBe(true);
  });

  // each event's data is read as the server types it for its code (src/gen/codes.ts)
  it('applies the events\' typed data: room info, game status, controller, rotation, gift, control return', async () => {
    const { root, room, channel, t } = await entered();
    channel.push(
      roomBatch(DD, 'e1', [
        typed(RoomEventCode.ROOM_INFO_CHANGE, { roomName: '新名字', mode: 4, isShow: 0, hasPassword: true }),
        typed(RoomEventCode.CONTROL_CHANGE, { controller: ME, excludeUserId: [] }),
        typed(RoomEventCode.ROTATION_CHANGE, { on: true, turnSecs: 120, current: ME, queue: [ME, 30003], turnEndsAt: T0 + 60_000 }),
        typed(RoomEventCode.GIFT_MESSAGE, { giver: user(30003, 'nick3', '张三'), receiver: user(HOST, '主播'), giftNum: 3, giftImage: '' }),
        typed(RoomEventCode.CONTROL_RETURN, { ...user(30003, '张三'), controlType: 'ASSISTANT' }),
      ]),
    );
    const r = room.info!.room;
    expect([r.roomName, r.mode, r.isShow, r.hasPassword]).toEqual(['新名字', 4, 0, true]);
    expect(r.controller).toBe(ME);
    expect(room.control.rotation).toMatchObject({ on: true, position: 1, queued: 2, secondsLeft: 60, turnSecs: 120, current: ME });
    expect(room.talk.barrage.at(-1)).toMatchObject({ text: '张三 送给 主播 礼物 x3', color: BarrageColor.GIFT_NAME });
    expect(root.ui.toasts.at(-1)?.message).toBe('张三 已归还控制权');
    // the game's status follows its event; an event without its data reads the room again
    channel.push(roomBatch(DD, 'e1', [typed(RoomEventCode.GAME_INFO_CHANGE, { status: 3 })]));
    expect(room.info!.room.gameStatus).toBe(3);
    await settle();
    const infos = t.api.callsTo(RoomPaths.info).length;
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.ROTATION_CHANGE, {}, { data: '' })]));
    expect(t.api.callsTo(RoomPaths.info).length).toBe(infos + 1);
  });

  // CONTROL_REQUEST shows in the barrage only for the host
  // the host's online list says who is banned from chat; a ban or its lift reloads it
  it('reloads the online list after a chat ban or its lift', async () => {
    const { room, t } = await entered({ host: ME });
    t.api.on('POST', RoomPaths.banMessage, () => null);
    const before = t.api.callsTo(RoomPaths.userList).length;
    expect(await room.members.banChat(30003, true)).toBe(true);
    await settle();
    expect(t.api.callsTo(RoomPaths.banMessage).at(-1)?.body).toMatchObject({ ddRid: DD, userId: 30003, ban: 1 });
    expect(t.api.callsTo(RoomPaths.userList).length).toBe(before + 1);
    expect(await room.members.banChat(30003, false)).toBe(true);
    await settle();
    expect(t.api.callsTo(RoomPaths.banMessage).at(-1)?.body).toMatchObject({ ban: 0 });
    expect(t.api.callsTo(RoomPaths.userList).length).toBe(before + 2);
  });

  it('shows control requests to the host only', async () => {
    const viewer = await entered();
    viewer.channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_REQUEST, { nickname: '小红' })]));
    expect(viewer.room.talk.barrage).toHaveLength(0);
    viewer.root.dispose();

    const host = await entered({ host: ME });
    host.channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_REQUEST, { nickname: '小红' })]));
    expect(host.room.talk.barrage.at(-1)).toMatchObject({ text: '小红 申请控制权', color: '#FE8342' });
  });

  // 2015 / 2025: the invite confirms with the spec's texts; 同意 accepts by roomSerial
  it('asks about a control invite and accepts it', async () => {
    const { root, channel, t } = await entered();
    t.api.on('POST', RoomPaths.controlInviteAccept, () => null);
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.CONTROL_ON_INVITE, {}, { userIds: [ME] })]));
    expect(root.ui.messageBoxes[0]).toMatchObject({ title: '邀请一起玩', message: '邀请你一起加入游戏，快来体验吧~', confirmText: '同意', cancelText: '拒绝' });
    root.ui.messageBoxes[0].resolve(true);
    await settle();
    expect(t.api.callsTo(RoomPaths.controlInviteAccept)[0].body).toEqual({ roomSerial: 9001 });
  });

  // KICK_OUT aimed at this user: the error view with the event's message
  it('shows the error view when kicked', async () => {
    const { room, channel } = await entered();
    channel.push(roomBatch(DD, 'e1', [ev(RoomEventCode.KICK_OUT, {}, { userIds: [ME], msg: '你已被移出该房间' })]));
    expect(room.load).toBe(RoomLoad.ERROR);
    expect(room.error).toEqual({ code: 2031, message: '你已被移出该房间' });
    expect(channel.roomFrames.at(-1)).toEqual({ kind: 'unwatch', ddRid: DD });
  });

  // USER_RELAY_END: the room is over and the live summary opens for everyone
  it('opens the live summary when the relay ends', async () => {
    const { room, channel, t } = await entered();
    channel.push({ kind: 'notification', code: 130447, content: '', data: '{}' });
    await settle();
    expect(room.ended).toBe(true);
    expect(room.summaryOpen).toBe(true);
    expect(t.api.callsTo(RoomPaths.liveDetail)[0].body).toEqual({ roomSerial: 9001 });
  });

  // the host's exit ends the room: the summary is read by roomSerial
  it('opens the summary after the host exits', async () => {
    const { room, t } = await entered({ host: ME });
    expect(room.hostsRelay).toBe(true);
    await room.exit();
    await settle();
    expect(t.api.callsTo(RoomPaths.exit)).toHaveLength(1);
    expect(room.summaryOpen).toBe(true);
    expect(room.ddRid).toBeNull();
  });

  // 20007: sending chat without a bound phone prompts to bind one
  it('prompts to bind a phone on 20007', async () => {
    const { root, room, t } = await entered();
    t.api.on('POST', RoomPaths.chatSend, () => fail(20007, 'x'));
    const sending = room.talk.sendChat('你好');
    await settle();
    expect(root.ui.messageBoxes[0].message).toBe('根据相关法律法规，为保障您的账户安全，体验当前功能需绑定手机号哦~');
    root.ui.messageBoxes[0].resolve(true);
    expect(await sending).toBe(false);
  });

  // rotation: my place in the queue and the turn's time left
  it('reads the rotation position and time left', async () => {
    const { room, server } = await roomRoot();
    server.rotation = { on: true, turnSecs: 300, current: null, queue: [40004, ME], turnEndsAt: T0 + 125_000 };
    await room.enter(DD);
    await settle();
    expect(room.control.rotation).toEqual({ on: true, position: 2, queued: 2, secondsLeft: 125, turnSecs: 300, current: null });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(room.control.rotation.secondsLeft).toBe(120);
  });

  // a reload: the membership the server knows is entered again quietly; a refusal asks nothing
  it('restores the room this user is in after login', async () => {
    const { root, t, channel } = await roomRoot();
    t.api.on('POST', '/api/japi/yoo/v2/room/userInfo', () => ({ id: ME, ddRid: DD, roomSerial: 9001, gameType: 4, applyControl: { state: 0 }, chatBanned: false }));
    root.onLoggedIn();
    await settle();
    expect(root.room?.inRoom).toBe(true);
    expect(channel.roomFrames.at(-1)).toEqual({ kind: 'watch', ddRid: DD, epoch: 'e1', afterOffset: 10 });

    root.room!.forget();
    t.api.on('POST', RoomPaths.loginRelayRoom, () => fail(130201, '请输入房间密码'));
    await root.room!.restore(DD);
    await settle();
    expect(root.room!.ddRid).toBeNull();
    expect(root.room!.passwordPrompt).toBeNull();
  });

  // a refused watch (empty epoch): the room is entered again, not watched in a loop
  it('enters again when the room refuses the watch', async () => {
    const { room, channel, t } = await entered();
    const entries = t.api.callsTo(RoomPaths.loginRelayRoom).length;
    channel.push({ kind: 'roomReset', ddRid: DD, epoch: '', offset: 0 });
    await settle();
    expect(t.api.callsTo(RoomPaths.loginRelayRoom).length).toBe(entries + 1);
    expect(channel.roomFrames.at(-1)).toEqual({ kind: 'watch', ddRid: DD, epoch: 'e1', afterOffset: 10 });
    channel.push({ kind: 'roomReset', ddRid: DD, epoch: '', offset: 0 });
    await settle();
    expect(t.api.callsTo(RoomPaths.loginRelayRoom).length).toBe(entries + 1);
    expect(room.inRoom).toBe(true);
  });

  // 130133 is a notice line in the barrage; 130134 releases control, alerts and goes home
  it('handles the live control notices', async () => {
    const { root, room, channel, server, navigations } = await entered();
    server.controllerId = ME;
    await room.loadInfo();
    expect(room.hasControl).toBe(true);
    channel.push({ kind: 'notification', code: 130133, content: '', data: '{}' });
    expect(room.talk.barrage.at(-1)).toMatchObject({ text: '一起玩的操控即将结束，请及时保存游戏进度', notice: true });
    channel.push({ kind: 'notification', code: 130134, content: '', data: '{}' });
    expect(room.hasControl).toBe(false);
    expect(root.ui.messageBoxes[0].message).toBe('一起玩的操控时间已结束');
    root.ui.messageBoxes[0].resolve(true);
    await settle();
    expect(navigations.at(-1)).toBe('/');
  });
});
