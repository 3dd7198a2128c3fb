import { describe, expect, expectTypeOf, it } from 'vitest';
import { eventData, NotificationCode, notificationData, RoomEventCode, type NotificationData, type RoomEventData } from './codes';

describe('a push frame\'s data, typed by its code', () => {
  it('reads a room event\'s data as the server\'s type for that code', () => {
    const chat = eventData(RoomEventCode.CHAT, JSON.stringify({ userId: 3, nickname: '小明', displayName: '小明', avatar: '', status: 0, text: '你好', faceId: 2 }));
    expectTypeOf(chat).toEqualTypeOf<RoomEventData[typeof RoomEventCode.CHAT] | null>();
    expect(chat?.text).toBe('你好');
    expect(chat?.faceId).toBe(2);
    const enter = eventData(RoomEventCode.ROOM_ENTER, '{"userId":4,"nickname":"小红","count":5}');
    expectTypeOf(enter).toEqualTypeOf<RoomEventData[typeof RoomEventCode.ROOM_ENTER] | null>();
    expect(enter?.count).toBe(5);
  });

  it('reads a notification\'s data as the server\'s type for that code', () => {
    const short = notificationData(NotificationCode.USER_GAME_TIME_NOT_ENOUGH, '{"gameId":1,"left":8}');
    expectTypeOf(short).toEqualTypeOf<NotificationData[typeof NotificationCode.USER_GAME_TIME_NOT_ENOUGH] | null>();
    expect(short).toEqual({ gameId: 1, left: 8 });
    const state = notificationData(NotificationCode.USER_GAME_STATUS_CHANGE, '{"hasGameOnline":false}');
    expect(state?.hasGameOnline).toBe(false);
  });

  it('is null when the frame carries no data object: empty, not JSON, null, a number, an array', () => {
    for (const text of ['', 'not json', 'null', '42', '"text"', '[1,2]']) {
      expect(eventData(RoomEventCode.ROOM_INFO_CHANGE, text)).toBeNull();
      expect(notificationData(NotificationCode.USER_GAME_END, text)).toBeNull();
    }
  });
});
