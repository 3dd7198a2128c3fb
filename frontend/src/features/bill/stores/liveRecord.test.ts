import { describe, expect, it } from 'vitest';
import type { LiveRecord } from '../../../api/types';
import { liveRecordTexts } from './liveRecord';

const row = (over: Partial<LiveRecord>): LiveRecord => ({
  dd_rid: 1,
  room_serial: 500001,
  name: '房间',
  game_id: 1,
  game_name: '星海远征',
  created_at: 0,
  ended_at: 10,
  audience_count: 0,
  gift_count: 3,
  gold: 50,
  play_minutes: 2,
  ...over,
});

describe('the live record texts', () => {
  it('shows what the room received and charged, and whether it is live', () => {
    expect(liveRecordTexts(row({}))).toEqual({ status: '已结束', earned: '收到礼物3个，金币50', charged: '消耗游戏时长2分钟' });
    expect(liveRecordTexts(row({ ended_at: null })).status).toBe('直播中');
  });
});
