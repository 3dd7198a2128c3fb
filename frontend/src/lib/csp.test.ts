import { readFileSync } from 'node:fs';
import path from 'node:path';

// The server's Content-Security-Policy allows scripts from the site only (script-src 'self'):
// the page must have no inline script, or the browser would refuse to run it.
describe('index.html under the CSP', () => {
  it('has no inline script: every <script> loads a file', () => {
    const html = readFileSync(path.resolve(__dirname, '../../index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
