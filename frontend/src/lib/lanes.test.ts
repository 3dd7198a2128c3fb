import { describe, expect, it } from 'vitest';
import { giftLayout } from '../features/playtime/stores/playTimeStore';
import { floatIconName } from './gameStatus';
import { QUEUE_RULES } from '../test/helpers';
import { chooseLaneCard, expectedRank, laneName, ownWaitText, preferredPreLane, upsellText, waitMinutes, wxNotice } from './lanes';
import { formatPlayTime } from './time';

const card = (id: number, title = '速进卡') => ({ id, goods_title: title, expires_at: 0, status: 0, card_type: 1, play_type: 0, minutes: 0, source: 'shop', near_expiration: false, remain_give_times: 0 });
const preview = { preSort: 4, waitDuration: 125, isFast: 3 };

describe('lane card precedence (core-platform.md §2.7)', () => {
  it.each([
    // carrier first, even with cards and a preview
    [{ isFast: 2, cards: [card(1)], preview, previewLane: 3 }, 'carrier'],
    // the ultimate member lane next
    [{ isFast: 1, cards: [card(1)], preview, previewLane: 3 }, 'fast'],
    // an owned card beats the upsell
    [{ isFast: 0, cards: [card(1)], preview, previewLane: 1 }, 'card'],
    [{ isFast: 4, cards: [card(1)], preview: null, previewLane: 1 }, 'card'],
    // the upsell needs the channel preview
    [{ isFast: 0, cards: [], preview, previewLane: 3 }, 'upsell'],
    [{ isFast: 0, cards: [], preview: null, previewLane: 3 }, 'none'],
  ])('%j -> %s', (input, kind) => {
    expect(chooseLaneCard({ ...input, rules: QUEUE_RULES }).kind).toBe(kind);
  });

  it('the card is the soonest to expire (first); 查看更多速进卡 only with more than one', () => {
    expect(chooseLaneCard({ isFast: 0, cards: [card(7, 'A')], preview: null, previewLane: null, rules: QUEUE_RULES })).toEqual({
      kind: 'card',
      card: card(7, 'A'),
      more: false,
    });
    const two = chooseLaneCard({ isFast: 0, cards: [card(7, 'A'), card(8, 'B')], preview: null, previewLane: null, rules: QUEUE_RULES });
    expect(two).toMatchObject({ kind: 'card', card: { id: 7 }, more: true });
  });

  it('the upsell names the tier and says the expected rank and wait', () => {
    expect(chooseLaneCard({ isFast: 0, cards: [], preview, previewLane: 3, rules: QUEUE_RULES })).toEqual({
      kind: 'upsell',
      lane: 3,
      label: 'VVIP专属通道',
      text: '预计排名第5位，等待时间少于3分钟',
    });
  });

  it('says the wait is being measured rather than guessing, and gives the own wait as a range', () => {
    expect(upsellText({ preSort: 4, waitDuration: 0, waitDurationMin: null })).toBe('预计排名第5位，等待时间测算中');
    expect(ownWaitText(null)).toBe('预计等待时间测算中');
    expect(ownWaitText({ ownWaitMin: 70, ownWaitMax: 250 })).toBe('预计等待 2–5 分钟');
    expect(ownWaitText({ ownWaitMin: 30, ownWaitMax: 50 })).toBe('预计等待约 1 分钟');
    expect(ownWaitText({ ownWaitMin: 130, ownWaitMax: null })).toBe('预计等待 3 分钟以上');
  });
});

describe('pre lane and the wait formula (core-platform.md §4.6, §9)', () => {
  it.each([
    [0, false, 3],
    [6, false, 3],
    [5, false, 3],
    [4, false, 3],
    [3, false, 1],
    [0, true, 1],
    [1, false, null],
    [2, true, null],
  ])('lane %d, cards %s -> pre lane %s', (lane, cards, pre) => {
    expect(preferredPreLane(QUEUE_RULES, lane, cards)).toBe(pre);
  });

  it.each([
    [0, 1],
    [-5, 1],
    [1, 1],
    [60, 1],
    [61, 2],
    [600, 10],
    [601, 11],
  ])('wait %d s -> %d minutes', (seconds, minutes) => {
    expect(waitMinutes(seconds)).toBe(minutes);
  });

  it('expected rank is preSort + 1', () => {
    expect(expectedRank(0)).toBe(1);
    expect(expectedRank(3)).toBe(4);
    expect(upsellText({ preSort: 0, waitDuration: 30 })).toBe('预计排名第1位，等待时间少于1分钟');
  });

  it('lane names come from the served rules', () => {
    expect(laneName(QUEUE_RULES, 0)).toBe('普通队列');
    expect(laneName(QUEUE_RULES, 3)).toBe('VVIP专属通道');
    expect(laneName(QUEUE_RULES, undefined)).toBe('普通队列');
    expect(laneName(null, 3)).toBe('');
    expect(preferredPreLane(null, 0)).toBeNull();
  });
});

describe('messaging-app notice area (core-platform.md §2.7)', () => {
  const base = { web: '1', delayShowCodeTime: 30, delayShowReserveTime: 60, queDuration: 0, bound: false };
  it.each([
    [{ ...base, web: '0', queDuration: 999 }, 'text'],
    [{ ...base, web: undefined, queDuration: 999 }, 'text'],
    [{ ...base, queDuration: 30 }, 'text'],
    [{ ...base, queDuration: 31 }, 'qr'],
    [{ ...base, bound: true, queDuration: 31 }, 'text'],
    [{ ...base, bound: true, queDuration: 61 }, 'reserve'],
  ])('%j -> %s', (input, kind) => {
    expect(wxNotice(input).kind).toBe(kind);
  });
});

describe('formats', () => {
  it.each([
    [0, '0分钟'],
    [1, '1分钟'],
    [59.2, '60分钟'],
    [60, '60分钟'],
    [60.5, '1小时1分钟'],
    [61, '1小时1分钟'],
    [119.1, '2小时0分钟'],
    [125, '2小时5分钟'],
    [undefined, '0分钟'],
  ])('play time %s min -> %s', (minutes, text) => {
    expect(formatPlayTime(minutes)).toBe(text);
  });

  it('the float icon name carries the fast-lane flag', () => {
    expect(floatIconName(1, 0)).toBe('queue');
    expect(floatIconName(1, 3)).toBe('queue_fast');
    expect(floatIconName(5, 1)).toBe('playing_fast');
  });

  it('gift layout by count', () => {
    expect([1, 2, 3, 5].map(giftLayout)).toEqual(['one', 'two', 'three', 'three']);
  });
});
