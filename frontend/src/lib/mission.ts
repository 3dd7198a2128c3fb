// Check-in and tasks: the pure rules of commerce.md §2.11, §2.12, §4.10 and §4.11.
import type { MissionTask } from '../api/types';

/** A reward counts as doubled when play_time / origin_play_time = 2 (commerce.md §4.10). */
export function isDouble(playTime: number, origin: number): boolean {
  return origin > 0 && playTime / origin === 2;
}

/** Task status (commerce.md §3): 0 todo, 1 claimable, 2 done. */
export const TaskStatus = { TODO: 0, CLAIMABLE: 1, DONE: 2 } as const;

/** The task item's button by status (commerce.md §2.12). */
export function taskButton(status: number): { label: string; disabled: boolean } {
  if (status === TaskStatus.CLAIMABLE) return { label: '领取奖励', disabled: false };
  if (status === TaskStatus.DONE) return { label: '已完成', disabled: true };
  return { label: '去完成', disabled: false };
}

/** What status 0 does by taskType (commerce.md §4.11's table). */
export type TaskAction = { kind: 'route'; to: string } | { kind: 'checkin' } | { kind: 'relay' } | { kind: 'live' };

const TO_DETAIL = ['userIdAuthed', 'bindWx', 'bindQq', 'upAvatar', 'upNickname', 'share'];
const TO_GAMES = ['collectGame', 'userStars', 'comment', 'discuss', 'gameStart', 'gamePlay'];
const TO_LIVE = ['gameLive', 'barrageInteractive', 'relayInteractive', 'relayControl'];

export function taskAction(taskType: string): TaskAction {
  if (TO_DETAIL.includes(taskType)) return { kind: 'route', to: '/user/detail' };
  if (TO_GAMES.includes(taskType)) return { kind: 'route', to: '/game' };
  if (taskType === 'signIn') return { kind: 'checkin' };
  if (taskType === 'gameRelay') return { kind: 'relay' };
  if (TO_LIVE.includes(taskType)) return { kind: 'live' };
  if (taskType === 'order' || taskType === 'orderSuccess') return { kind: 'route', to: '/user/member/vvip' };
  return { kind: 'route', to: '/game' };
}

/** The userIdAuthed task is hidden when the user is identity-verified and it is still todo. */
export function visibleTasks(tasks: MissionTask[], idAuthed: boolean): MissionTask[] {
  return tasks.filter((t) => !(t.taskType === 'userIdAuthed' && idAuthed && t.status === TaskStatus.TODO));
}

/** 'progress a/b'; a task without a ceiling (-1) shows its count alone. */
export function progressText(t: Pick<MissionTask, 'progress' | 'finishProgress'>): string {
  return t.finishProgress < 0 ? `${t.progress}` : `${t.progress}/${t.finishProgress}`;
}

/** The play-time minutes a task grants (the first reward's faceValue). */
export function taskMinutes(t: Pick<MissionTask, 'rewards'>): number {
  return t.rewards[0]?.faceValue ?? 0;
}

/** The check-in result's count-up: it waits 250 ms, then counts to the reward over 750 ms. */
export const COUNT_UP_DELAY_MS = 250;
export const COUNT_UP_MS = 750;

/** The number shown `elapsed` ms after the result opened. */
export function countUp(target: number, elapsed: number): number {
  if (elapsed <= COUNT_UP_DELAY_MS) return 0;
  const f = Math.min(1, (elapsed - COUNT_UP_DELAY_MS) / COUNT_UP_MS);
  return Math.round(target * f);
}
