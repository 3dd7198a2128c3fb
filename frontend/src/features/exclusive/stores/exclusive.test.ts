import { describe, expect, it } from 'vitest';
import type { BackpackCard } from '../../../api/types';
import { exclusiveOf, exclusiveText, gameSectionPath, parseCategory } from './exclusive';

const card = (id: number, play_type: number) => ({ id, play_type }) as unknown as BackpackCard;

describe('exclusive play time', () => {
  it('links to the usable games of the category', () => {
    expect(gameSectionPath(3)).toBe(`/game/section?game_category_id=3&section_name=${encodeURIComponent('可用游戏')}`);
  });
  it('finds the category of an exclusive card only', () => {
    const ex = [{ id: 7, game_category_id: 2, minutes_left: 30 }];
    expect(exclusiveOf(card(7, 4), ex)).toEqual(ex[0]);
    expect(exclusiveOf(card(7, 1), ex)).toBeNull();
    expect(exclusiveOf(card(8, 4), ex)).toBeNull();
    expect(exclusiveText(ex[0])).toBe('剩余30分钟专属时长，仅限可用游戏使用');
  });
  it('reads a positive category id', () => {
    expect(parseCategory('2')).toBe(2);
    for (const bad of [null, '', '0', '-1', 'x', '1.5']) expect(parseCategory(bad)).toBeNull();
  });
});
