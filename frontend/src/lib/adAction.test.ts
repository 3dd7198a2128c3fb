import { describe, expect, it } from 'vitest';
import { adActionOfSearch, isClickableAd, parseAdAction, purchaseOfSection, searchWithoutAction } from './adAction';
import { sectionKey } from './purchase';

describe('ad-click actions (commerce.md §2.15)', () => {
  it('type 3 names an action', () => {
    expect(parseAdAction(3, 'buyCoin')).toEqual({ action: { kind: 'purchase', type: 'coin' }, needLogin: false });
    expect(parseAdAction('3', 'buyMember')?.action).toEqual({ kind: 'purchase', type: 'member' });
    expect(parseAdAction(3, 'buyDailyPackage')?.action).toEqual({ kind: 'section', section: 'shop_card_day' });
    expect(parseAdAction(3, 'buyNightPackage')?.action).toEqual({ kind: 'section', section: 'shop_card_night' });
    expect(parseAdAction(3, 'openMessageDialog')?.action).toEqual({ kind: 'dialog', dialog: 'message' });
    expect(parseAdAction(3, 'liveDetailDialog')?.action).toEqual({ kind: 'dialog', dialog: 'liveDetail' });
    expect(parseAdAction(3, 'formatDisk')).toBeNull();
    expect(parseAdAction(3, '')).toBeNull();
  });

  it('type 4 maps a section key to its purchase', () => {
    const of = (key: string) => parseAdAction(4, JSON.stringify({ type: 'goods', section_key: key }))?.action;
    expect(of('shop_card_coin')).toEqual({ kind: 'purchase', type: 'coin' });
    expect(of('shop_card_yoodo')).toEqual({ kind: 'purchase', type: 'yoodo' });
    expect(of('shop_card_time')).toEqual({ kind: 'purchase', type: 'time' });
    expect(of('shop_card_queue')).toEqual({ kind: 'purchase', type: 'queue' });
    expect(of('shop_vip')).toEqual({ kind: 'purchase', type: 'member', category: 'vip' });
    expect(of('shop_hvip')).toEqual({ kind: 'purchase', type: 'member', category: 'vvip' });
    expect(of('shop_unknown')).toBeUndefined();
    expect(parseAdAction(4, JSON.stringify({ type: 'game', section_key: 'shop_vip' }))).toBeNull();
    expect(parseAdAction(4, '{not json')).toBeNull();
    expect(parseAdAction(4, 'null')).toBeNull();
  });

  it('agrees with the dialog’s own type → section mapping', () => {
    for (const [type, category] of [['coin', 'vip'], ['time', 'vip'], ['queue', 'vip'], ['yoodo', 'vip'], ['member', 'vvip']] as const) {
      const key = sectionKey(type, category);
      expect(key).not.toBeNull();
      const a = purchaseOfSection(key as string);
      expect(a && a.kind === 'purchase' && a.type).toBe(type);
    }
  });

  it('type 5 buys by goods code; need_login is read', () => {
    expect(parseAdAction(5, 'coin_600', '1')).toEqual({ action: { kind: 'goodsCode', goodsCode: 'coin_600' }, needLogin: true });
    expect(parseAdAction(5, 'a b/../c')).toBeNull();
    expect(parseAdAction(7, 'buyCoin')).toBeNull();
    expect(parseAdAction(undefined, 'buyCoin')).toBeNull();
  });

  it('reads and strips a page URL’s action', () => {
    expect(adActionOfSearch('?target_type=3&target_value=buyDailyPackage')?.action).toEqual({ kind: 'section', section: 'shop_card_day' });
    expect(adActionOfSearch('?x=1')).toBeNull();
    expect(adActionOfSearch('?target_type=3&target_value=buyCoin&need_login=true')?.needLogin).toBe(true);
    expect(searchWithoutAction('?a=1&target_type=3&target_value=buyCoin&need_login=1')).toBe('?a=1');
    expect(searchWithoutAction('?target_type=3&target_value=buyCoin')).toBe('');
    expect(isClickableAd(4)).toBe(false);
    expect(isClickableAd(3)).toBe(true);
  });
});
