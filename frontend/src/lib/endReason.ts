import type { EndReason } from '../api/types';

/** Why a session ended, as the history and the quality report say it. */
const END_REASON_TEXT: Record<EndReason, string> = {
  over: '玩家退出',
  time_up: '时长用尽',
  game_exited: '游戏已退出',
  host_lost: '游戏主机断开',
  server_restart: '服务维护',
  missed: '错过排队',
  gave_up: '放弃进入',
  cancelled: '已取消',
};

export function endReasonText(reason: string | null | undefined): string {
  if (!reason) return '游戏中';
  return (END_REASON_TEXT as Record<string, string>)[reason] ?? '已结束';
}
