import { FakeApi } from '../../../test/fakeTransport';
import type { Goods } from '../../../api/types';
import { buttonText, memberPriceShown, PackageStore, playedText } from './packageStore';

const sku = (over: Partial<Goods> = {}) => ({ id: 211, code: 'daily_1d', retail_price: 600, member_price: 500, face_value: 1, ...over }) as Goods;

function api(): FakeApi {
  const a = new FakeApi();
  a.on('GET', '/api/v3/user/night-play/all', () => [
    { type: 'daily', name: 'daily_package', status: 1, play_time: 125, expired_at: 1_790_000_000_000, exp_hide: 0 },
    { type: 'night', name: 'night_package', status: 2, play_time: 0, expired_at: 0, exp_hide: 1 },
  ]);
  a.on('GET', '/api/web/v1/section/goods', (q) => ({ goods: q.section_key === 'shop_card_day' ? [sku()] : [] }));
  a.on('GET', '/api/v3/config/content', (q) => ({ key: q.key, content: `<p>${String(q.key)}</p>` }));
  return a;
}

describe('package rules', () => {
  it('button, member price and played time', () => {
    expect(buttonText(1, sku())).toBe('立即续费');
    expect(buttonText(2, sku())).toBe('立即开通');
    expect(buttonText(1, null)).toBe('续费已达上限');
    expect(memberPriceShown('daily', sku())).toBe(true);
    expect(memberPriceShown('night', sku())).toBe(false);
    expect(memberPriceShown('daily', sku({ member_price: 600 }))).toBe(false);
    expect(memberPriceShown('daily', sku({ member_price: 0 }))).toBe(false);
    expect(playedText(125)).toBe('2小时5分钟');
    expect(playedText(0)).toBe('0小时0分钟');
  });
});

describe('PackageStore', () => {
  it('reads both packages, one SKU each (page size 1), the rules, and the records of the selected one', async () => {
    const a = api();
    const s = new PackageStore(a);
    await s.load();
    expect(a.callsTo('/api/web/v1/section/goods').map((c) => c.body)).toEqual([
      { section_key: 'shop_card_day', page_size: 1 },
      { section_key: 'shop_card_night', page_size: 1 },
    ]);
    expect(s.infos.daily?.play_time).toBe(125);
    expect(s.skus.daily?.code).toBe('daily_1d');
    expect(s.skus.night).toBeNull();
    expect(s.rules.night).toBe('<p>allnight_play</p>');
    a.on('GET', '/api/v3/user/order', () => ({ total: 0, data: [], ts: 0 }));
    s.select('night');
    await s.toggleRecords();
    expect(a.callsTo('/api/v3/user/order')[0].body).toEqual({ goods_type: 22, page: 1, page_size: 100 });
    expect(s.records).toEqual([]);
  });

  it('a failed read shows not stock', async () => {
    const a = new FakeApi();
    a.on('GET', '/api/v3/user/night-play/all', () => Promise.reject(new Error('down')));
    const s = new PackageStore(a);
    await s.load();
    expect(s.failed).toBe(true);
  });
});
