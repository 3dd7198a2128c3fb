import { BLOCK_MESSAGE, browserVerdict, isMobile, WARN_MESSAGE } from './browserVerdict';

const chrome = (v: number) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`;

describe('the browser check of a game start (core-platform.md §5.5)', () => {
  it('blocks Chromium below 70, warns at 70–71, lets 72 and later start', () => {
    expect(browserVerdict(chrome(69))).toEqual({ kind: 'block', message: BLOCK_MESSAGE });
    expect(browserVerdict(chrome(70))).toEqual({ kind: 'warn', message: WARN_MESSAGE });
    expect(browserVerdict(chrome(71))).toEqual({ kind: 'warn', message: WARN_MESSAGE });
    expect(browserVerdict(chrome(72))).toEqual({ kind: 'ok' });
    expect(browserVerdict(chrome(136))).toEqual({ kind: 'ok' });
    expect(browserVerdict('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36').kind).toBe('ok');
  });

  it('blocks the vendor browser below 79, Gecko, dual-core browsers and every other browser', () => {
    expect(browserVerdict(`${chrome(78)} Edg/78.0.1`).kind).toBe('block');
    expect(browserVerdict(`${chrome(120)} Edg/120.0.1`).kind).toBe('ok');
    expect(browserVerdict(`${chrome(70)} Edge/18.17763`).kind).toBe('block');
    expect(browserVerdict('Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0').kind).toBe('block');
    expect(browserVerdict(`${chrome(108)} QQBrowser/12.0`).kind).toBe('block');
    expect(browserVerdict(`${chrome(86)} 360SE`).kind).toBe('block');
    expect(browserVerdict('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15').kind).toBe('block');
    expect(browserVerdict('Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)').kind).toBe('block');
    expect(browserVerdict('').kind).toBe('block');
  });

  it("skips the product's apps, phones and car head units", () => {
    expect(browserVerdict(`${chrome(60)} agentWeb`).kind).toBe('ok');
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    expect(isMobile(iphone)).toBe(true);
    expect(browserVerdict(iphone).kind).toBe('ok');
    const car = 'Mozilla/5.0 (Linux; Android 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/65.0 Mobile Safari/537.36 LiBrowser/2.0';
    expect(isMobile(car)).toBe(false);
    expect(browserVerdict(car).kind).toBe('ok');
  });
});
