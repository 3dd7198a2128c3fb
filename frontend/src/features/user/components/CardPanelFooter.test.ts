import { describe, expect, it } from 'vitest';
import type { NightPlay } from '../../../api/types';
import { formatDateTime } from '../../../lib/time';
import { packageRowText } from './CardPanelFooter';

const row = (status: number): NightPlay => ({ type: 'daily', name: '日卡', status, play_time: 0, expired_at: 1_790_000_000_000, exp_hide: 0 });

describe('the card panel package rows (commerce.md §2.4)', () => {
  it("reads '已过期' at status 2, else the expiry", () => {
    expect(packageRowText(row(2))).toBe('已过期');
    expect(packageRowText(row(1))).toBe(`${formatDateTime(1_790_000_000_000)} 到期`);
  });
});
