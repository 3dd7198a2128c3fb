import { describe, expect, it } from 'vitest';
import {
  eventIsFor,
  formatHeat,
  formatMinSec,
  formatOnline,
  orderEvents,
  roomFormBody,
  RoomText,
  stripNameExt,
  validatePassword,
  validateRoomForm,
  type RoomEventItem,
} from './room';

const ev = (offset: number, code = 3000): RoomEventItem => ({ offset, code, msg: '', desc: '', data: '', userIds: [], excludeUserIds: [], ts: 0 });

describe('room rules', () => {
  // §2.11 / §9: heat as is below 10000, else in 万 with 2 decimals
  it.each([
    [0, '0'],
    [9999, '9999'],
    [10000, '1.00万'],
    [12345, '1.23万'],
    [1234567, '123.45万'],
    [-5, '0'],
  ])('heat %d shows as %s', (heat, shown) => {
    expect(formatHeat(heat)).toBe(shown);
  });

  // §2.14: the online count is "99+" at 100 or more
  it.each([
    [0, '0'],
    [99, '99'],
    [100, '99+'],
    [19000, '99+'],
  ])('online %d shows as %s', (n, shown) => {
    expect(formatOnline(n)).toBe(shown);
  });

  // §4.9: [name.ext] loses its extension, other brackets stay
  it.each([
    ['[微笑.png]', '[微笑]'],
    ['你好[大笑.gif]呀[哭.webp]', '你好[大笑]呀[哭]'],
    ['[没有扩展名]', '[没有扩展名]'],
    ['a.png', 'a.png'],
  ])('%s is shown as %s', (text, shown) => {
    expect(stripNameExt(text)).toBe(shown);
  });

  // §5: the room form's rules in order, with their texts
  it('validates the start-relay form', () => {
    const ok = { roomName: '一起来玩', mode: 2, gameId: 1, password: '', isShow: true };
    expect(validateRoomForm(ok, false)).toBeNull();
    expect(validateRoomForm({ ...ok, roomName: '  ' }, false)).toBe(RoomText.NAME_EMPTY);
    expect(validateRoomForm({ ...ok, roomName: '一二三四五六七八九十一二三四五六' }, false)).toBe(RoomText.NAME_TOO_LONG);
    expect(validateRoomForm({ ...ok, mode: null }, false)).toBe(RoomText.MODE_EMPTY);
    expect(validateRoomForm({ ...ok, gameId: null }, false)).toBe(RoomText.GAME_EMPTY);
    expect(validateRoomForm({ ...ok, gameId: null }, true)).toBeNull();
    expect(validateRoomForm({ ...ok, password: '12a4' }, false)).toBe(RoomText.FORM_PASSWORD_FORMAT);
    expect(validateRoomForm({ ...ok, password: '1234' }, false)).toBeNull();
  });

  // §5: the password is sent base64 with isUpdatePass 1; none means isUpdatePass 0 and no field
  it('encodes the password', () => {
    expect(roomFormBody({ roomName: 'r', mode: 2, gameId: 1, password: '1234', isShow: false })).toEqual({
      roomName: 'r',
      mode: 2,
      gameId: 1,
      isShow: 0,
      isUpdatePass: 1,
      password: 'MTIzNA==',
    });
    expect(roomFormBody({ roomName: 'r', mode: 4, gameId: 1, password: '', isShow: true })).toEqual({ roomName: 'r', mode: 4, gameId: 1, isShow: 1, isUpdatePass: 0 });
  });

  it('validates the password prompt', () => {
    expect(validatePassword('')).toBe('密码不能为空');
    expect(validatePassword('123')).toBe('密码格式不正确');
    expect(validatePassword('12345')).toBe('密码格式不正确');
    expect(validatePassword('0000')).toBeNull();
  });

  // a batch is applied after the last offset; a copy is dropped; a batch past the next offset is a gap
  it('orders events by offset', () => {
    const b = (first: number, last: number, ...offsets: number[]) => ({ first, last, events: offsets.map((o) => ev(o)) });
    expect(orderEvents({ epoch: 'e', offset: 2 }, 'e', b(3, 4, 3, 4))).toEqual({ apply: [ev(3), ev(4)], gap: false, offset: 4 });
    expect(orderEvents({ epoch: 'e', offset: 4 }, 'e', b(3, 5, 3, 4, 5))).toEqual({ apply: [ev(5)], gap: false, offset: 5 });
    expect(orderEvents({ epoch: 'e', offset: 2 }, 'e', b(3, 4, 4, 3))).toEqual({ apply: [ev(3), ev(4)], gap: false, offset: 4 });
    expect(orderEvents({ epoch: 'e', offset: 2 }, 'e', b(4, 5, 4, 5))).toEqual({ apply: [], gap: true, offset: 2 });
    expect(orderEvents({ epoch: 'e', offset: 2 }, 'other', b(3, 3, 3))).toEqual({ apply: [], gap: true, offset: 2 });
    expect(orderEvents({ epoch: 'e', offset: 9 }, 'e', b(3, 9, 3, 9))).toEqual({ apply: [], gap: false, offset: 9 });
    // a busy room's merged batch: 3..=8 carried as three events, no gap
    expect(orderEvents({ epoch: 'e', offset: 2 }, 'e', b(3, 8, 3, 5, 8))).toEqual({ apply: [ev(3), ev(5), ev(8)], gap: false, offset: 8 });
  });

  it('filters targeted events', () => {
    expect(eventIsFor({ userIds: [], excludeUserIds: [] }, 7)).toBe(true);
    expect(eventIsFor({ userIds: [7], excludeUserIds: [] }, 7)).toBe(true);
    expect(eventIsFor({ userIds: [8], excludeUserIds: [] }, 7)).toBe(false);
    expect(eventIsFor({ userIds: [], excludeUserIds: [7] }, 7)).toBe(false);
  });

  it('formats the rotation time left', () => {
    expect(formatMinSec(300)).toBe('5:00');
    expect(formatMinSec(61)).toBe('1:01');
    expect(formatMinSec(-3)).toBe('0:00');
  });
});
