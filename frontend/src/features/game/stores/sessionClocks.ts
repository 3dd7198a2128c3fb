// The game session's clocks (core-platform.md §4.3, §3.3): the 500 ms tick while a countdown or
// the online time shows, the QUEUE safety poll, the hanging read of a PLAYING session, the ready
// dialog's fullscreen exit and boarding reminder, the missed-queue recheck, and the loading of the
// session actions' code once a session appears. GameStore starts
// them once; they follow its state by reactions.
import { reaction, type IReactionDisposer } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { LiveGameState } from '../../../api/types';
import type { BrowserEffects } from '../../../lib/notify';
import { CLOCK_MS, HANG_READ_MS, key, MISSED_RECHECK_MS, QUEUE_POLL_MS } from './gameTypes';

/** The session the clocks follow (GameStore). */
export interface ClockedSession {
  readonly live: LiveGameState | null;
  readonly isThisClient: boolean;
  readonly needsClock: boolean;
  readonly readyDialogVisible: boolean;
  readonly readyRemaining: number;
  tick(): void;
  refresh(): Promise<void>;
  refreshDuration(): Promise<void>;
  recheckMissed(id: string): Promise<void>;
  /** loads the session actions' code (sessionActions.ts) */
  loadActions(): Promise<unknown>;
}

/** Starts the clocks of `game`; the returned function stops them all. */
export function runSessionClocks(game: ClockedSession, effects: Pick<BrowserEffects, 'exitFullscreen' | 'readyReminder'>): () => void {
  /** sessions whose ready dialog already sent the boarding reminder */
  const remindedIds = new Set<string>();
  /** sessions whose lapsed countdown was already rechecked */
  const missedChecked = new Set<string>();
  let clockTimer: ReturnType<typeof setInterval> | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  let hangTimer: ReturnType<typeof setInterval> | null = null;
  const timeouts = new Set<ReturnType<typeof setTimeout>>();

  const setClock = (on: boolean): void => {
    if (on && !clockTimer) {
      game.tick();
      clockTimer = setInterval(() => game.tick(), CLOCK_MS);
    } else if (!on && clockTimer) {
      clearInterval(clockTimer);
      clockTimer = null;
    }
  };

  const setQueuePoll = (on: boolean): void => {
    if (on && !pollTimer) {
      pollTimer = setInterval(() => void game.refresh(), QUEUE_POLL_MS);
    } else if (!on && pollTimer) {
      clearInterval(pollTimer);
      pollTimer = null;
    }
  };

  const setHangPoll = (on: boolean): void => {
    if (on && !hangTimer) {
      hangTimer = setInterval(() => void game.refreshDuration(), HANG_READ_MS);
    } else if (!on && hangTimer) {
      clearInterval(hangTimer);
      hangTimer = null;
    }
  };

  const later = (fn: () => void, ms: number): void => {
    const t = setTimeout(() => {
      timeouts.delete(t);
      fn();
    }, ms);
    timeouts.add(t);
  };

  const disposers: IReactionDisposer[] = [
    // a session appears: the code of its actions loads (its dialogs' buttons run them)
    reaction(
      () => game.live !== null,
      (on) => {
        if (on) void game.loadActions().catch(() => undefined);
      },
      { fireImmediately: true },
    ),
    // the clock runs only while something on screen counts
    reaction(
      () => game.needsClock,
      (on) => setClock(on),
      { fireImmediately: true },
    ),
    // QUEUE safety poll: pushes carry rank changes, the 5 s read catches a lost push
    reaction(
      () => game.live !== null && game.isThisClient && game.live.status === GameStatus.QUEUE,
      (on) => setQueuePoll(on),
      { fireImmediately: true },
    ),
    // the ready dialog appears: leave fullscreen and send the boarding reminder, once per session
    reaction(
      () => (game.readyDialogVisible && game.live ? key(game.live.id) : null),
      (id) => {
        if (id && !remindedIds.has(id)) {
          remindedIds.add(id);
          effects.exitFullscreen();
          effects.readyReminder(id);
        }
      },
    ),
    // a session PLAYING here: its hanging state is read every HANG_READ_MS (and on 130140)
    reaction(
      () => (game.live && game.isThisClient && game.live.status === GameStatus.PLAYING ? key(game.live.id) : null),
      (id) => setHangPoll(id !== null),
      { fireImmediately: true },
    ),
    // the ready countdown reached 0: recheck after 1 s, once per session
    reaction(
      () => (game.live && game.isThisClient && game.live.status === GameStatus.READY && game.readyRemaining <= 0 ? key(game.live.id) : null),
      (id) => {
        if (id && !missedChecked.has(id)) {
          missedChecked.add(id);
          later(() => void game.recheckMissed(id), MISSED_RECHECK_MS);
        }
      },
    ),
  ];

  return () => {
    for (const d of disposers) d();
    setClock(false);
    setQueuePoll(false);
    setHangPoll(false);
    for (const t of timeouts) clearTimeout(t);
    timeouts.clear();
  };
}
