import type { LiveRecord } from '../../../api/types';
import { PagedList } from '../../../lib/pagedList';
import type { Api } from '../../../transport/types';

export const LIVE_RECORD_PAGE_SIZE = 10;

/** What a hosted room received and charged, as the live record shows it. */
export function liveRecordTexts(r: LiveRecord): { status: string; earned: string; charged: string } {
  return {
    status: r.ended_at == null ? '直播中' : '已结束',
    earned: `收到礼物${r.gift_count}个，金币${r.gold}`,
    charged: `消耗游戏时长${r.play_minutes}分钟`,
  };
}

/** The live record (GET /api/v3/user/bill/live): the caller's hosted rooms, newest first. */
export class LiveRecordStore extends PagedList<LiveRecord> {
  constructor(api: Api) {
    super((page, page_size) => api.get('/api/v3/user/bill/live', { page, page_size }), LIVE_RECORD_PAGE_SIZE);
  }
}
