// Not a test: screenshots of the main screens at a phone and a desktop viewport, for looking at
// the layout by eye (node e2e/shots.mjs OUT_DIR). Needs what the e2e tests need.
import path from 'node:path';
import {
  configToml,
  grant,
  launchBrowser,
  login,
  makeTempDir,
  openGameDetail,
  startOnNode,
  startServerWith,
  stopServer,
} from './helpers.mjs';

const out = process.argv[2] ?? '/tmp/yoo-shots';
const VIEWPORTS = { mobile: { width: 390, height: 844 }, desktop: { width: 1440, height: 900 } };

const tmp = await makeTempDir('yoo-shots-');
const log = [];
const server = await startServerWith(
  tmp.dir,
  'config.toml',
  configToml({
    bind: '127.0.0.1:0',
    dataDir: tmp.dataDir,
    game: { connect_countdown_secs: 600, connect_delay_ms: 300 },
    nodes: [
      { id: 1, name: '排队一区', machines: [] },
      { id: 2, name: '畅玩一区', machines: ['s-01', 's-02'] },
    ],
  }),
  log,
);
const base = server.url;
const browser = await launchBrowser();
try {
  let n = 0;
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const ctx = await browser.newContext({ locale: 'zh-CN', viewport, isMobile: name === 'mobile', hasTouch: name === 'mobile' });
    ctx.setDefaultTimeout(15_000);
    const page = await ctx.newPage();
    const shot = (what) => page.screenshot({ path: path.join(out, `${name}-${what}.png`) });
    await page.goto(`${base}/`);
    await page.getByTestId('home-games').locator('[data-testid^="game-card-"]').first().waitFor();
    await shot('home');
    await page.getByTestId('header-login').click();
    await page.getByTestId('login-dialog').waitFor();
    await shot('login');
    await page.getByTestId('login-dialog').getByRole('button', { name: '关闭' }).click();
    const phone = `1390000090${n++}`;
    await login(page, base, phone);
    await shot('home-logged-in');
    await grant(base, { cellphone: phone, kind: 'play_time', minutes: 600 });
    await openGameDetail(page);
    await shot('detail');
    await startOnNode(page, 1);
    await page.getByTestId('queue-dialog').waitFor();
    await page.waitForTimeout(500);
    await shot('queue');
    await page.getByTestId('queue-dialog').getByRole('button', { name: '收起' }).click();
    await page.getByTestId('game-float').waitFor();
    await shot('float');
    await page.getByTestId('float-queue').click();
    await page.getByTestId('queue-dialog').getByRole('button', { name: '退出排队' }).click();
    await page.waitForTimeout(500);
    await shot('exit-confirm');
    await ctx.close();
  }
  // READY on the node with machines
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const ctx = await browser.newContext({ locale: 'zh-CN', viewport, isMobile: name === 'mobile', hasTouch: name === 'mobile' });
    ctx.setDefaultTimeout(15_000);
    const page = await ctx.newPage();
    await page.goto(`${base}/`);
    const phone = `1390000091${n++}`;
    await login(page, base, phone);
    await grant(base, { cellphone: phone, kind: 'play_time', minutes: 600 });
    await openGameDetail(page);
    await page.getByTestId('start-game').click();
    await page.getByTestId('node-dialog').waitFor();
    await page.getByTestId('node-status-2').filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
    await page.screenshot({ path: path.join(out, `${name}-nodes.png`) });
    await page.getByTestId('node-2').click();
    await page.getByTestId('node-confirm').click();
    await page.getByTestId('ready-dialog').waitFor();
    await page.screenshot({ path: path.join(out, `${name}-ready.png`) });
    await ctx.close();
  }
  console.log(`screenshots in ${out}`);
} catch (e) {
  console.error(e, log.join('').split('\n').slice(-30).join('\n'));
  process.exitCode = 1;
} finally {
  await browser.close();
  await stopServer(server.proc);
  await tmp.cleanup();
}
