import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CentreMessage, SenderTab } from '../../../api/types';
import { fail, type FakeApi } from '../../../test/fakeTransport';
import { loggedInRoot, makeRoot, settle } from '../../../test/helpers';
import { IGNORED_SENDER, MESSAGE_PAGE_SIZE, messageStoreOf, UNREAD_DELAY_MS } from './messageStore';

const tab = (sender: number, unReadCount: number): SenderTab => ({
  sender,
  name: `sender ${sender}`,
  unReadCount,
  lastMsgTitle: unReadCount ? '标题' : '',
  sendTime: unReadCount ? '2026-11-27 10:00:00' : '',
});

const counts = (tabs: SenderTab[]) => ({
  commentUnReadCount: 0,
  fansUnReadCount: 0,
  praiseUnReadCount: 0,
  noticeUnReadCount: 0,
  unReadCount: tabs.reduce((n, t) => n + t.unReadCount, 0),
  sendTime: '',
  lastMsgTitle: '',
  officialUnReadCount: 0,
  officialSendTime: '',
  officialLastMsgTitle: '',
  unreadCountVos: tabs,
});

const msg = (id: number): CentreMessage => ({
  id,
  name: `消息${id}`,
  image: '',
  content: '内容',
  link: '',
  sendTime: '2026-11-27 10:00:00',
  msgTepParam: '',
  sender: 1,
  read: false,
});

/** 23 messages, newest first, served page by page. */
function serve(api: FakeApi, total = 23) {
  api.on('POST', '/api/japi/msg/center/page', (body: unknown) => {
    const { pageNo, pageSize } = body as { pageNo: number; pageSize: number };
    const all = Array.from({ length: total }, (_, i) => msg(total - i));
    return {
      totalCount: total,
      totalPageCount: Math.ceil(total / pageSize),
      list: all.slice((pageNo - 1) * pageSize, pageNo * pageSize),
    };
  });
}

describe('the message centre (social.md §2.9, §4.10)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the unread counts 300 ms after start and again on NEW_MESSAGE; the dot is their sum', async () => {
    const { root, t, channel } = await loggedInRoot();
    let tabs = [tab(1, 1), tab(2, 0), tab(4, 0), tab(5, 1), tab(6, 0)];
    t.api.on('POST', '/api/japi/msg/center/unreadCount', () => counts(tabs));
    const store = messageStoreOf(root);
    await vi.advanceTimersByTimeAsync(UNREAD_DELAY_MS - 1);
    expect(t.api.callsTo('/api/japi/msg/center/unreadCount')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(t.api.callsTo('/api/japi/msg/center/unreadCount')[0]!.body).toEqual({ ignoreSenders: IGNORED_SENDER });
    expect(store.unreadTotal).toBe(2);

    tabs = [tab(1, 1), tab(2, 0), tab(4, 3), tab(5, 1), tab(6, 0)];
    channel.push({ kind: 'newMessage' });
    await settle();
    expect(store.unreadTotal).toBe(5);
  });

  it('pages with load more until totalPageCount, per sender', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/msg/center/unreadCount', () => counts([tab(1, 0)]));
    serve(t.api);
    const store = messageStoreOf(root);
    store.enter();
    await settle();
    expect(t.api.callsTo('/api/japi/msg/center/page')[0]!.body).toEqual({ pageNo: 1, pageSize: MESSAGE_PAGE_SIZE });
    expect(store.list.map((m) => m.id).slice(0, 2)).toEqual([23, 22]);
    expect(store.hasMore).toBe(true);
    await store.loadMore();
    await store.loadMore();
    expect(store.list).toHaveLength(23);
    expect(store.hasMore).toBe(false);
    await store.loadMore();
    expect(t.api.callsTo('/api/japi/msg/center/page')).toHaveLength(3);

    store.selectSender(5);
    await settle();
    expect(t.api.callsTo('/api/japi/msg/center/page').at(-1)!.body).toEqual({ pageNo: 1, pageSize: MESSAGE_PAGE_SIZE, sender: 5 });
    expect(store.list).toHaveLength(10);
    store.leave();
  });

  it('mark all read and clear all say so and re-read the unread state; a failed clear says 清空失败', async () => {
    const { root, t } = await loggedInRoot();
    let unread = 2;
    t.api.on('POST', '/api/japi/msg/center/unreadCount', () => counts([tab(1, unread)]));
    t.api.on('POST', '/api/japi/msg/center/updateRead', () => {
      unread = 0;
      return null;
    });
    serve(t.api, 3);
    const store = messageStoreOf(root);
    store.enter();
    await settle();
    expect(store.unreadTotal).toBe(2);
    await store.markAllRead();
    expect(store.unreadTotal).toBe(0);
    expect(store.list.every((m) => m.read)).toBe(true);
    expect(root.ui.toasts.some((x) => x.message === '标记为已读成功')).toBe(true);

    t.api.on('POST', '/api/japi/msg/center/delete', () => fail(50000, 'x'));
    await store.clearAll();
    expect(root.ui.toasts.some((x) => x.message === '清空失败')).toBe(true);
    expect(store.list).toHaveLength(3);
    t.api.on('POST', '/api/japi/msg/center/delete', () => null);
    const reads = t.api.callsTo('/api/japi/msg/center/unreadCount').length;
    await store.clearAll();
    expect(root.ui.toasts.some((x) => x.message === '清空成功')).toBe(true);
    expect(store.list).toHaveLength(0);
    expect(t.api.callsTo('/api/japi/msg/center/unreadCount').length).toBe(reads + 1);
    store.leave();
  });

  it('a guest reads nothing and the entry opens the login dialog', async () => {
    const { root, t } = await makeRoot({ loggedIn: false });
    const store = messageStoreOf(root);
    await vi.advanceTimersByTimeAsync(UNREAD_DELAY_MS);
    expect(t.api.callsTo('/api/japi/msg/center/unreadCount')).toHaveLength(0);
    expect(store.unreadTotal).toBe(0);
    root.ui.openMessages(root.user.isLoggedIn);
    expect(root.ui.loginOpen).toBe(true);
    expect(root.ui.messagesOpen).toBe(false);
  });
});
