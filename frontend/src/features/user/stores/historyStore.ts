import type { PlayRecord } from '../../../api/types';
import { PagedList } from '../../../lib/pagedList';
import type { Api } from '../../../transport/types';

export const HISTORY_PAGE_SIZE = 10;

/** The player's played sessions (GET game/history), a page at a time, newest first. */
export class HistoryStore extends PagedList<PlayRecord> {
  constructor(api: Api) {
    super((page, page_size) => api.get('/api/japi/yoo/game/history', { page, page_size }), HISTORY_PAGE_SIZE);
  }
}
