// Issue 7, a new user on a phone (390x844) and the first load: the header, the login dialog and
// every queue and game dialog fit the screen and can be tapped; '开始游戏' as a guest logs in and
// goes on to the node dialog by itself (core-platform.md §4.13); the queue, the float, the exit
// confirm and the ready dialog; and the home page loads only its own scripts, compressed and
// cached (hashed assets immutable, the page revalidated).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertNoSidewaysScroll,
  assertTappable,
  configToml,
  grant,
  loginInDialog,
  newPlayerContext,
  openGameDetail,
  withServer as withServerOf,
} from './helpers.mjs';

const QUEUE_NODE = 1;
const PLAY_NODE = 2;
const PHONE = { width: 390, height: 844 };

function mobileConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { connect_countdown_secs: 60, connect_delay_ms: 300, rank_refresh_ms: 200 },
    nodes: [
      { id: QUEUE_NODE, name: '排队一区', machines: [] },
      { id: PLAY_NODE, name: '畅玩一区', machines: ['m-01'] },
    ],
  });
}

const withServer = (tag, body) => withServerOf(tag, mobileConfig, body);

test('a phone at 390x844: log in from 开始游戏, queue, float, exit confirm, ready dialog', { timeout: 180_000 }, async () => {
  await withServer('mobile', async ({ base, browser, pages }) => {
    const ctx = await newPlayerContext(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    const page = (pages.phone = await ctx.newPage());
    await page.goto(`${base}/`);
    await page.getByTestId('home-games').locator('[data-testid^="game-card-"]').first().waitFor();
    await assertTappable(page, page.getByTestId('header-login'), 'the header 登录 button');
    await assertTappable(page, page.getByRole('link', { name: '游戏库', exact: true }), 'the 游戏库 link');
    await assertTappable(page, page.getByTestId('search-input'), 'the search box');
    await assertNoSidewaysScroll(page, 'home');

    // a guest's 开始游戏 opens the login dialog, whole on screen
    await openGameDetail(page);
    await assertNoSidewaysScroll(page, 'game detail');
    await assertTappable(page, page.getByTestId('start-game'), '开始游戏');
    await page.getByTestId('start-game').tap();
    const dialog = page.getByTestId('login-dialog');
    await assertTappable(page, dialog, 'the login dialog');
    await assertTappable(page, dialog.getByRole('button', { name: '关闭' }), "the login dialog's close button");
    await dialog.getByTestId('wechat-login').waitFor();
    await assertTappable(page, dialog.getByTestId('login-type-phone'), 'the phone entry');
    await dialog.getByTestId('login-type-phone').tap();
    for (const id of ['login-phone', 'login-code', 'login-send-code', 'login-submit']) {
      await assertTappable(page, dialog.getByTestId(id), id);
    }

    // logging in continues the start: the node dialog opens by itself after the gift
    const gift = await loginInDialog(page, base, '13900000051');
    assert.ok(gift, 'a new player gets the registration gift');
    const nodes = page.getByTestId('node-dialog');
    await nodes.waitFor();
    await assertTappable(page, nodes, 'the node dialog');
    await page.getByTestId(`node-status-${QUEUE_NODE}`).filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
    await assertTappable(page, page.getByTestId(`node-${QUEUE_NODE}`), 'a node');
    await assertTappable(page, page.getByTestId('node-confirm'), 'the node confirm');
    await page.getByTestId(`node-${QUEUE_NODE}`).tap();
    await page.getByTestId('node-confirm').tap();

    // the queue dialog, its header buttons, then the float
    const queue = page.getByTestId('queue-dialog');
    await page.getByTestId('queue-rank').filter({ hasText: '排队中，当前第 1 位' }).waitFor();
    await assertTappable(page, queue, 'the queue dialog');
    await assertTappable(page, page.getByTestId('queue-minimise'), '收起');
    await assertTappable(page, page.getByTestId('queue-exit'), '退出排队');
    await assertTappable(page, page.getByTestId('upsell-accelerate'), '立即加速');
    await page.getByTestId('queue-minimise').tap();
    await assertTappable(page, page.getByTestId('game-float'), 'the float');
    await assertTappable(page, page.getByTestId('float-queue'), "the float's rank");
    await assertNoSidewaysScroll(page, 'with the float');
    await page.getByTestId('float-queue').tap();

    // leaving: the retention dialog and the exit confirm fit too
    await page.getByTestId('queue-exit').tap();
    await assertTappable(page, page.getByTestId('retention-dialog'), 'the retention dialog');
    await assertTappable(page, page.getByTestId('retention-exit'), '仍要退出');
    await page.getByTestId('retention-exit').tap();
    const box = page.getByTestId('message-box');
    await assertTappable(page, box, 'the exit confirm');
    await assertTappable(page, box.getByRole('button', { name: '立即退出' }), '立即退出');
    await box.getByRole('button', { name: '立即退出' }).tap();
    await queue.waitFor({ state: 'detached' });

    // a machine is free on the other node: the ready dialog
    await grant(base, { cellphone: '13900000051', kind: 'play_time', minutes: 60 });
    await page.getByTestId('start-game').tap();
    await nodes.waitFor();
    await page.getByTestId(`node-status-${PLAY_NODE}`).filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
    await page.getByTestId(`node-${PLAY_NODE}`).tap();
    await page.getByTestId('node-confirm').tap();
    const ready = page.getByTestId('ready-dialog');
    await ready.waitFor();
    await page.waitForTimeout(300); // the dialog's entrance animation
    await assertTappable(page, ready, 'the ready dialog');
    await assertTappable(page, page.getByTestId('ready-enter'), '进入游戏');
    await assertTappable(page, page.getByTestId('ready-giveup'), '放弃');
    await page.getByTestId('ready-giveup').tap();
    await ready.waitFor({ state: 'detached' });
  });
});

test('first load: the home page loads its own chunks only, compressed, hashed assets immutable', { timeout: 60_000 }, async () => {
  await withServer('firstload', async ({ base, browser, pages }) => {
    const ctx = await newPlayerContext(browser);
    const page = (pages.home = await ctx.newPage());
    const responses = [];
    page.on('response', (r) => responses.push(r));
    await page.goto(`${base}/`);
    await page.getByTestId('home-games').locator('[data-testid^="game-card-"]').first().waitFor();
    await page.waitForLoadState('networkidle');

    const doc = responses.find((r) => r.request().resourceType() === 'document');
    const docHeaders = await doc.allHeaders();
    assert.equal(docHeaders['cache-control'], 'no-cache', 'the page is revalidated');
    const scripts = responses.filter((r) => /\/assets\/.+\.js$/.test(r.url()));
    assert.ok(scripts.length >= 1, 'the entry script loaded');
    const entry = scripts.find((r) => /\/assets\/index-[^/]+\.js$/.test(r.url()));
    assert.ok(entry, 'the entry chunk loaded');
    assert.match((await entry.allHeaders())['content-encoding'] ?? '', /^(br|gzip)$/, 'the entry chunk is sent compressed');
    for (const r of [...scripts, ...responses.filter((x) => /\/assets\/.+\.css$/.test(x.url()))]) {
      const h = await r.allHeaders();
      // files under 512 bytes are not worth a compressed copy (vite.config.ts)
      if (Number(h['content-length']) >= 512 || h['content-encoding']) {
        assert.match(h['content-encoding'] ?? '', /^(br|gzip)$/, `${r.url()} is sent compressed`);
      }
      assert.equal(h['cache-control'], 'public, max-age=31536000, immutable', `${r.url()} is cached for good`);
      assert.equal(h.vary, 'Accept-Encoding');
    }
    const names = scripts.map((r) => new URL(r.url()).pathname);
    for (const lazy of ['GameListPage', 'GameDetailPage', 'PlayPage', 'UserPage', 'socket', 'readyNotice']) {
      assert.ok(!names.some((n) => n.includes(`/${lazy}-`)), `the home page did not load the ${lazy} chunk: ${names.join(', ')}`);
    }
    // another route loads its own chunk on the first visit
    const listChunk = page.waitForResponse((r) => /\/assets\/GameListPage-[^/]+\.js$/.test(r.url()));
    await page.getByRole('link', { name: '游戏库', exact: true }).click();
    await page.waitForURL(/\/game(\?|$)/);
    const chunk = await listChunk;
    assert.equal((await chunk.allHeaders())['cache-control'], 'public, max-age=31536000, immutable');
  });
});
