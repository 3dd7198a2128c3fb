import { forbiddenAlert, parseBan } from './forbidden';

describe('the forbidden alert (core-platform.md §2.6)', () => {
  it('fills the placeholders and highlights what it filled', () => {
    const box = forbiddenAlert({ template: '您的账号因${reason}已被封禁，解封时间：${until}', values: { reason: '使用外挂', until: '2026-12-01 08:00' } });
    expect(box).toEqual({
      title: '温馨提示',
      message: '您的账号因使用外挂已被封禁，解封时间：2026-12-01 08:00',
      highlights: ['使用外挂', '2026-12-01 08:00'],
      confirmText: '好的',
    });
    expect(forbiddenAlert({ template: '账号${missing}已冻结', values: {} }).message).toBe('账号已冻结');
  });

  it('reads the ban data of a BAN frame, and nothing else', () => {
    expect(parseBan('{"status":0,"template":"t","values":{}}')).toEqual({ status: 0, template: 't', values: {} });
    expect(parseBan('')).toBeNull();
    expect(parseBan('{"status":"x"}')).toBeNull();
    expect(parseBan('null')).toBeNull();
  });
});
