import { describe, expect, it } from 'vitest';
import type { MissionTask } from '../../../api/types';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { missionStoreOf } from './missionStore';

const TASK: MissionTask = {
  taskCode: 'daily_sign_in',
  taskType: 'signIn',
  taskClass: 1,
  name: '每日签到',
  icon: '',
  desc: '完成当日签到',
  status: 1,
  progress: 1,
  finishProgress: 1,
  rewards: [{ faceValue: 5, key: 'playTime', value: 5, valueTxt: '+5分钟' }],
};

const SIGN_INFO = { title: '每日签到', sub_title: '', count: 0, reward_play_time: 5, sign_in_today: false, sign_items: [] };

async function env(loggedIn = true) {
  const e = await makeRoot({ loggedIn });
  e.t.api.on('POST', '/api/japi/social/tsk/unfinished', () => [TASK, { ...TASK, taskCode: 'other' }]);
  e.t.api.on('GET', '/api/japi/social/tsk/rewardConfig', () => [{ key: 'playTime', icon: '', title: '游戏时长', desc: '' }]);
  e.t.api.on('GET', '/api/activity/sign/info', () => SIGN_INFO);
  return { ...e, store: missionStoreOf(e.root) };
}

describe('check-in and tasks (commerce.md §4.10, §4.11)', () => {
  it('a guest gets the login dialog instead of the check-in dialog', async () => {
    const { root, store } = await env(false);
    store.openCheckin();
    expect(root.ui.loginOpen).toBe(true);
    expect(store.checkinOpen).toBe(false);
  });

  it('a check-in closes the dialog, re-reads the balance and shows the result', async () => {
    const { root, store, t } = await env();
    t.api.on('POST', '/api/activity/signin', () => ({ count: 3, reward_play_time: 10, reward_play_time_origin: 5, reward_play_time_next: 10 }));
    store.openCheckin();
    await settle();
    expect(store.info?.reward_play_time).toBe(5);
    const profiles = t.api.callsTo('/api/user/profile').length;
    await store.checkIn();
    expect(store.checkinOpen).toBe(false);
    expect(t.api.callsTo('/api/user/profile').length).toBe(profiles + 1);
    expect(root.playTime.checkin?.count).toBe(3);
    root.playTime.closeCheckin();
    expect(root.playTime.checkin).toBeNull();
  });

  it('one claim at a time; 140202 reloads the list and shows the message; 20107 is ignored', async () => {
    const { root, store, t } = await env();
    await store.loadTasks();
    let release: () => void = () => undefined;
    t.api.on('POST', '/api/japi/social/tsk/receive', () => new Promise<unknown>((r) => (release = () => r({ notice: '领取成功', task: { ...TASK, status: 2 } }))));
    const first = store.claim(store.tasks[0]!);
    await settle();
    expect(store.claiming).toBe('daily_sign_in');
    await store.claim(store.tasks[1]!);
    expect(t.api.callsTo('/api/japi/social/tsk/receive')).toHaveLength(1);
    release();
    await first;
    expect(store.tasks[0]!.status).toBe(2);
    expect(store.claiming).toBeNull();

    const lists = t.api.callsTo('/api/japi/social/tsk/unfinished').length;
    t.api.on('POST', '/api/japi/social/tsk/receive', () => fail(140202, '任务未完成或奖励已领取'));
    await store.claim(store.tasks[1]!);
    await settle();
    expect(t.api.callsTo('/api/japi/social/tsk/unfinished').length).toBe(lists + 1);
    expect(root.ui.toasts.some((x) => x.message === '任务未完成或奖励已领取')).toBe(true);

    const toasts = root.ui.toasts.length;
    t.api.on('POST', '/api/japi/social/tsk/receive', () => fail(20107, '请绑定手机号'));
    await store.claim(store.tasks[1]!);
    expect(root.ui.toasts.length).toBe(toasts);
  });

  it('a logout forgets the tasks and the check-in data', async () => {
    const { store, root, t } = await env();
    t.api.on('POST', '/api/user/logout', () => null);
    await store.loadTasks();
    store.openCheckin();
    await settle();
    expect(store.tasks).toHaveLength(2);
    const done = root.logout();
    await settle();
    root.ui.messageBoxes[0]!.resolve(true);
    await done;
    await settle();
    expect(store.tasks).toHaveLength(0);
    expect(store.info).toBeNull();
    expect(store.checkinOpen).toBe(false);
  });

  it('status 0 runs the type action: signIn opens the check-in, gamePlay goes to /game', async () => {
    const { store } = await env();
    const to: string[] = [];
    store.act({ ...TASK, status: 0 }, (p) => to.push(p));
    expect(store.checkinOpen).toBe(true);
    store.act({ ...TASK, status: 0, taskType: 'gamePlay' }, (p) => to.push(p));
    store.act({ ...TASK, status: 2, taskType: 'gamePlay' }, (p) => to.push(p));
    expect(to).toEqual(['/game']);
  });

  it('a nickname changed at the account centre re-reads a list on show (upNickname)', async () => {
    const { store, root, t } = await env();
    await store.loadTasks();
    const lists = t.api.callsTo('/api/japi/social/tsk/unfinished').length;
    t.api.on('GET', '/api/user/profile', () => ({ uid: 10001, nickname: '小明同学', avatar: '' }));
    await root.user.loadProfile();
    await settle();
    expect(t.api.callsTo('/api/japi/social/tsk/unfinished').length).toBe(lists + 1);
    await root.user.loadProfile();
    await settle();
    expect(t.api.callsTo('/api/japi/social/tsk/unfinished').length).toBe(lists + 1);
  });

  it('the upAvatar and upNickname tasks lead to /user/detail (commerce.md §4.11)', async () => {
    const { store } = await env();
    const to: string[] = [];
    store.act({ ...TASK, status: 0, taskType: 'upNickname' }, (p) => to.push(p));
    store.act({ ...TASK, status: 0, taskType: 'upAvatar' }, (p) => to.push(p));
    expect(to).toEqual(['/user/detail', '/user/detail']);
  });
});
