import { FakeApi } from '../../../test/fakeTransport';
import { settle } from '../../../test/helpers';
import { endReasonText } from '../../../lib/endReason';
import { HISTORY_PAGE_SIZE, HistoryStore } from './historyStore';

const record = (id: number) => ({
  id,
  gameId: 4,
  gameName: '荒原求生',
  gameLogo: '',
  nodeId: 1,
  nodeName: '华东一区',
  startedAt: 1_790_000_000_000,
  endedAt: 1_790_000_600_000,
  endReason: 'over',
  playedSecs: 600,
  chargedMinutes: 10,
  quality: { id, playedSecs: 598, latencyP50Ms: 21, latencyP95Ms: 48, fps: 29.8, drops: 2, reconnects: 0, reportedAt: 1_790_000_601_000 },
});

describe('HistoryStore', () => {
  it('loads a page of the history and pages through it', async () => {
    const api = new FakeApi();
    api.on('GET', '/api/japi/yoo/game/history', (q) => ({ data: [record(Number(q.page) * 100)], total: 25 }));
    const h = new HistoryStore(api);
    await h.load(1);
    expect(api.calls[0].body).toEqual({ page: 1, page_size: HISTORY_PAGE_SIZE });
    expect(h.items.map((r) => r.id)).toEqual([100]);
    expect(h.pages).toBe(3);
    await h.load(3);
    expect(h.page).toBe(3);
    expect(h.items[0].quality?.latencyP95Ms).toBe(48);
  });

  it('an older answer that arrives late is dropped', async () => {
    const api = new FakeApi();
    const answers: ((v: unknown) => void)[] = [];
    api.on('GET', '/api/japi/yoo/game/history', () => new Promise((r) => answers.push(r)));
    const h = new HistoryStore(api);
    const first = h.load(1);
    const second = h.load(2);
    await settle();
    answers[1]({ data: [record(2)], total: 2 });
    await second;
    answers[0]({ data: [record(1)], total: 2 });
    await first;
    expect(h.items.map((r) => r.id)).toEqual([2]);
    expect(h.page).toBe(2);
    expect(h.loading).toBe(false);
  });

  it('says why each session ended', () => {
    expect(endReasonText('host_lost')).toBe('游戏主机断开');
    expect(endReasonText('time_up')).toBe('时长用尽');
    expect(endReasonText(null)).toBe('游戏中');
    expect(endReasonText('something_new')).toBe('已结束');
  });
});
