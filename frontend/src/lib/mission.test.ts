import { describe, expect, it } from 'vitest';
import type { MissionTask } from '../api/types';
import { countUp, isDouble, progressText, taskAction, taskButton, taskMinutes, visibleTasks } from './mission';

const task = (over: Partial<MissionTask>): MissionTask => ({
  taskCode: 'c',
  taskType: 'signIn',
  taskClass: 1,
  name: '每日签到',
  icon: '',
  desc: '',
  status: 0,
  progress: 0,
  finishProgress: 1,
  rewards: [{ faceValue: 5, key: 'playTime', value: 5, valueTxt: '+5分钟' }],
  ...over,
});

describe('check-in and task rules (commerce.md §4.10, §4.11)', () => {
  it('doubles at ratio 2 only', () => {
    expect(isDouble(10, 5)).toBe(true);
    expect(isDouble(5, 5)).toBe(false);
    expect(isDouble(0, 0)).toBe(false);
  });

  it('labels the button by status', () => {
    expect(taskButton(0)).toEqual({ label: '去完成', disabled: false });
    expect(taskButton(1)).toEqual({ label: '领取奖励', disabled: false });
    expect(taskButton(2)).toEqual({ label: '已完成', disabled: true });
  });

  it('runs the action of the task type', () => {
    expect(taskAction('upNickname')).toEqual({ kind: 'route', to: '/user/detail' });
    expect(taskAction('gamePlay')).toEqual({ kind: 'route', to: '/game' });
    expect(taskAction('signIn')).toEqual({ kind: 'checkin' });
    expect(taskAction('gameRelay')).toEqual({ kind: 'relay' });
    expect(taskAction('barrageInteractive')).toEqual({ kind: 'live' });
    expect(taskAction('orderSuccess')).toEqual({ kind: 'route', to: '/user/member/vvip' });
  });

  it('hides userIdAuthed for a verified user while todo', () => {
    const list = [task({ taskType: 'userIdAuthed', status: 0 }), task({ taskCode: 'd', taskType: 'userIdAuthed', status: 1 })];
    expect(visibleTasks(list, true).map((t) => t.taskCode)).toEqual(['d']);
    expect(visibleTasks(list, false)).toHaveLength(2);
  });

  it('shows progress a/b, or the count without a ceiling, and the minutes', () => {
    expect(progressText(task({ progress: 3, finishProgress: 30 }))).toBe('3/30');
    expect(progressText(task({ progress: 2, finishProgress: -1 }))).toBe('2');
    expect(taskMinutes(task({}))).toBe(5);
    expect(taskMinutes(task({ rewards: [] }))).toBe(0);
  });

  it('counts up after 250 ms over 750 ms', () => {
    expect(countUp(20, 0)).toBe(0);
    expect(countUp(20, 250)).toBe(0);
    expect(countUp(20, 625)).toBe(10);
    expect(countUp(20, 1000)).toBe(20);
    expect(countUp(20, 5000)).toBe(20);
  });
});
