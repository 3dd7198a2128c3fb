import { makeAutoObservable, reaction, runInAction } from 'mobx';
import type { CentreMessage, SenderTab } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';

/** What this store needs from the others (the root store provides it). */
export type MessageDeps = Pick<AppServices, 'api' | 'ui' | 'user'>;

/** social.md §9: a page of messages is 10; the unread-count call ignores sender 3. */
export const MESSAGE_PAGE_SIZE = 10;
export const IGNORED_SENDER = 3;
/** social.md §4.10: the header's unread total is fetched 300 ms after start. */
export const UNREAD_DELAY_MS = 300;

/**
 * The message centre (social.md §2.9, §4.10): the sender tabs with their unread counts (the
 * header dot is their sum), the list of one sender's (or every) messages page by page, mark all
 * read and clear all. A NEW_MESSAGE push re-reads the counts (and the list while it is shown).
 */
export class MessageStore {
  tabs: SenderTab[] = [];
  /** the tab shown; null: every sender */
  sender: number | null = null;
  list: CentreMessage[] = [];
  pageNo = 0;
  totalPageCount = 0;
  totalCount = 0;
  loading = false;
  /** the first page of the current tab arrived */
  loaded = false;
  /** how many views (the dialog, the page) show the list now */
  private viewers = 0;
  private readonly deps: MessageDeps;

  constructor(deps: MessageDeps) {
    this.deps = deps;
    makeAutoObservable<MessageStore, 'deps' | 'viewers'>(this, { deps: false, viewers: false });
  }

  /** The header dot's figure: the sum over the tabs (social.md §3 "Unread counts"). */
  get unreadTotal(): number {
    return this.tabs.reduce((n, t) => n + t.unReadCount, 0);
  }

  get hasMore(): boolean {
    return this.pageNo < this.totalPageCount;
  }

  /** Another user (or none): nothing of the previous one stays. */
  reset(): void {
    this.tabs = [];
    this.sender = null;
    this.list = [];
    this.pageNo = 0;
    this.totalPageCount = 0;
    this.totalCount = 0;
    this.loaded = false;
  }

  async loadUnread(): Promise<void> {
    if (!this.deps.user.isLoggedIn) return;
    try {
      const counts = await this.deps.api.post('/api/japi/msg/center/unreadCount', { ignoreSenders: IGNORED_SENDER });
      runInAction(() => {
        this.tabs = counts.unreadCountVos;
      });
    } catch {
      // the dot keeps what it showed; the next push or opening reads again
    }
  }

  /** A view of the list opened: the tabs and the first page of the current tab are read. */
  enter(): void {
    this.viewers += 1;
    void this.loadUnread();
    void this.loadFirst();
  }

  leave(): void {
    this.viewers = Math.max(0, this.viewers - 1);
  }

  /** A NEW_MESSAGE push: the counts, and the list when it is on show. */
  arrived(): void {
    void this.loadUnread();
    if (this.viewers > 0) void this.loadFirst();
  }

  selectSender(sender: number | null): void {
    if (this.sender === sender && this.loaded) return;
    this.sender = sender;
    void this.loadFirst();
  }

  async loadFirst(): Promise<void> {
    this.list = [];
    this.pageNo = 0;
    this.totalPageCount = 0;
    this.loaded = false;
    await this.loadPage(1);
  }

  /** 'load more': the next page, until totalPageCount. */
  async loadMore(): Promise<void> {
    if (this.loading || !this.hasMore) return;
    await this.loadPage(this.pageNo + 1);
  }

  private async loadPage(pageNo: number): Promise<void> {
    if (!this.deps.user.isLoggedIn) return;
    const sender = this.sender;
    this.loading = true;
    try {
      const page = await this.deps.api.post('/api/japi/msg/center/page', {
        pageNo,
        pageSize: MESSAGE_PAGE_SIZE,
        ...(sender === null ? {} : { sender }),
      });
      runInAction(() => {
        if (sender !== this.sender) return; // another tab was chosen meanwhile
        const known = new Set(pageNo === 1 ? [] : this.list.map((m) => m.id));
        const fresh = page.list.filter((m) => !known.has(m.id));
        this.list = pageNo === 1 ? page.list : [...this.list, ...fresh];
        this.pageNo = pageNo;
        this.totalPageCount = page.totalPageCount;
        this.totalCount = page.totalCount;
        this.loaded = true;
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    } finally {
      runInAction(() => {
        this.loading = false;
      });
    }
  }

  /** 'mark all read': success '标记为已读成功'; the unread state is read again. */
  async markAllRead(): Promise<void> {
    try {
      await this.deps.api.post('/api/japi/msg/center/updateRead', undefined);
      runInAction(() => {
        this.list = this.list.map((m) => ({ ...m, read: true }));
        this.tabs = this.tabs.map((t) => ({ ...t, unReadCount: 0 }));
      });
      this.deps.ui.success('标记为已读成功');
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
    await this.loadUnread();
  }

  /** 'clear all': success '清空成功', failure '清空失败'; the unread state is read again. */
  async clearAll(): Promise<void> {
    try {
      await this.deps.api.post('/api/japi/msg/center/delete', undefined);
      runInAction(() => {
        this.list = [];
        this.pageNo = 0;
        this.totalPageCount = 0;
        this.totalCount = 0;
        this.loaded = true;
      });
      this.deps.ui.success('清空成功');
    } catch {
      this.deps.ui.error('清空失败');
    }
    await this.loadUnread();
  }
}

const stores = new WeakMap<MessageDeps, MessageStore>();

/**
 * The one message store of a root store. Created with the header's entry: the unread counts are
 * read 300 ms later, again at each login, and on every NEW_MESSAGE push.
 */
export function messageStoreOf(root: MessageDeps): MessageStore {
  let s = stores.get(root);
  if (!s) {
    const store = new MessageStore(root);
    const later = () => setTimeout(() => void store.loadUnread(), UNREAD_DELAY_MS);
    reaction(
      () => root.user.profile?.uid ?? null,
      (uid) => {
        store.reset();
        if (uid !== null) later();
      },
    );
    reaction(
      () => root.ui.messageArrivals,
      () => store.arrived(),
    );
    later();
    stores.set(root, store);
    s = store;
  }
  return s;
}
