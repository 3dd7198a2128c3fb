// Browser tests of queue lanes, fast-entry cards, the ready reminder and play time (issue 3),
// against the real yoo-server with players given memberships, cards and time through the dev
// grant endpoint. Node 1 has no machine (everyone queues there, ranks only move by lanes);
// node 2 has one machine (the ready dialog and play). A charged minute lasts 1 s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, grant, newPlayer, openGameDetail, startOnNode, withServer as withServerOf } from './helpers.mjs';

const QUEUE_NODE = 1;
const PLAY_NODE = 2;

function queueConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: {
      connect_countdown_secs: 30,
      connect_delay_ms: 300,
      rank_refresh_ms: 100,
      // a charged minute lasts 1 s, and a new player's gift is 1 minute
      play_minute_ms: 1000,
      register_gift_minutes: 1,
    },
    nodes: [
      { id: QUEUE_NODE, name: '排队一区', machines: [] },
      { id: PLAY_NODE, name: '畅玩一区', machines: ['t2-01'] },
    ],
  });
}

const withServer = (tag, body) => withServerOf(tag, queueConfig, body);
const player = (browser, base, phone, initScript) => newPlayer(browser, base, phone, { initScript });

const rankText = (n) => `排队中，当前第 ${n} 位`;

test('lanes: upsell, a VVIP joins ahead, retention, a fast-entry card moves the player to rank 1', { timeout: 180_000 }, async () => {
  await withServer('lanes', async ({ base, browser, pages }) => {
    const PHONE_P = '13900000011';
    const PHONE_V = '13900000012';

    // --- P, a normal player, queues on the machineless node: rank 1 and the VVIP upsell
    const { page: p } = await player(browser, base, PHONE_P);
    pages.P = p;
    await p.getByTestId('header-user').hover();
    await p.getByTestId('user-play-time').filter({ hasText: '游戏时长 1分钟' }).waitFor();
    await openGameDetail(p);
    await startOnNode(p, QUEUE_NODE);
    const dialogP = p.getByTestId('queue-dialog');
    await dialogP.waitFor();
    assert.match(await dialogP.innerText(), /游戏排队/);
    await p.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor();
    // the lane names come from the served queue rules, loaded beside the queue state
    await p.getByTestId('queue-lane').filter({ hasText: /^普通队列$/ }).waitFor();
    assert.equal(await p.getByTestId('queue-notice').innerText(), '排队完成后将自动为您启动游戏');
    await p.getByTestId('upsell-tier').filter({ hasText: /^VVIP专属通道$/ }).waitFor();
    await p.getByTestId('upsell-text').filter({ hasText: /^预计排名第1位，等待时间(少于\d+分钟|测算中)$/ }).waitFor();
    assert.equal(await p.getByTestId('ad-gift_game_dialog').count(), 1, 'the dialog ad slot shows on the normal lane');
    // 立即加速 opens the queue acceleration purchase (its goods are the server's); closing it
    // leaves the queue as it was
    await p.getByTestId('upsell-accelerate').click();
    const purchase = p.getByTestId('purchase-dialog');
    await purchase.getByTestId('goods-card').first().waitFor();
    assert.match(await purchase.locator('.modal__title').innerText(), /^(排队加速|购买会员)$/);
    await purchase.getByRole('button', { name: '关闭' }).click();
    await purchase.waitFor({ state: 'detached' });
    await p.evaluate(() => {
      window.__yooNoReload = true;
    });

    // --- V, a VVIP, joins the same queue and lands ahead of P
    const { page: v } = await player(browser, base, PHONE_V);
    pages.V = v;
    const vvip = await grant(base, { cellphone: PHONE_V, kind: 'vvip', days: 30 });
    assert.ok(vvip, 'the grant answers the profile');
    await openGameDetail(v);
    await startOnNode(v, QUEUE_NODE);
    await v.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor();
    await v.getByTestId('queue-lane').filter({ hasText: /^VVIP专属通道$/ }).waitFor();

    // P's rank grows without a reload, and the VVIP preview now puts a VVIP joiner second
    await p.getByTestId('queue-rank').filter({ hasText: rankText(2) }).waitFor({ timeout: 10_000 });
    await p.getByTestId('upsell-text').filter({ hasText: /^预计排名第2位，等待时间(少于\d+分钟|测算中)$/ }).waitFor({ timeout: 10_000 });
    assert.equal(await p.evaluate(() => window.__yooNoReload), true, 'P was not reloaded');

    // --- P tries to leave: the retention dialog first; 再等等 keeps the place
    await p.getByTestId('queue-exit').click();
    const retention = p.getByTestId('retention-dialog');
    await retention.waitFor();
    // the product is the first of queue_detainment_goods (the seeded 限时加速卡: the fast-entry lane)
    await p.getByTestId('retention-goods').filter({ hasText: '限时加速卡' }).waitFor();
    assert.equal(await p.getByTestId('retention-text').innerText(), '速进通道');
    await p.getByTestId('retention-rank').filter({ hasText: /^开通后预计排名第\d+位$/ }).waitFor();
    await p.getByTestId('retention-stay').click();
    await retention.waitFor({ state: 'detached' });
    // 立即加速 keeps the place and opens the product's purchase
    await p.getByTestId('queue-exit').click();
    await p.getByTestId('retention-buy').click();
    await retention.waitFor({ state: 'detached' });
    const offer = p.getByTestId('purchase-dialog');
    await offer.getByTestId('purchase-detail').filter({ hasText: '限时加速卡' }).waitFor();
    await offer.getByRole('button', { name: '关闭' }).click();
    await offer.waitFor({ state: 'detached' });
    await p.getByTestId('queue-rank').filter({ hasText: rankText(2) }).waitFor();
    // again, 仍要退出: the exit confirm; 再玩一会 keeps the place too
    await p.getByTestId('queue-exit').click();
    await retention.waitFor();
    await p.getByTestId('retention-exit').click();
    const box = p.getByTestId('message-box');
    await box.waitFor();
    const boxText = await box.innerText();
    assert.match(boxText, /退出排队/);
    assert.match(boxText, /立即退出/);
    await box.getByRole('button', { name: '再玩一会' }).click();
    await box.waitFor({ state: 'detached' });
    await p.getByTestId('queue-rank').filter({ hasText: rankText(2) }).waitFor();

    // --- P is given two fast-entry cards; minimising and reopening reads them
    await grant(base, { cellphone: PHONE_P, kind: 'card', count: 2 });
    await p.getByTestId('queue-minimise').click();
    await dialogP.waitFor({ state: 'detached' });
    await p.getByTestId('float-queue').filter({ hasText: '排队中 第2位' }).waitFor();
    await p.getByTestId('float-use-card').waitFor();
    assert.equal(await p.getByTestId('float-icon').getAttribute('data-icon'), 'queue');
    await p.getByTestId('float-queue').click();
    await dialogP.waitFor();
    const laneCard = p.getByTestId('lane-card');
    await laneCard.and(p.locator('[data-kind="card"]')).waitFor();
    assert.ok((await p.getByTestId('card-title').innerText()).length > 0, 'the card shows its goods_title');
    assert.match(await p.getByTestId('card-expiry').innerText(), /^有效期至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    assert.equal(await p.getByTestId('card-more').innerText(), '查看更多速进卡');

    // 立即使用: 使用成功, then the pushed state: fast lane, rank 1, no logo, no ad slot
    await p.getByTestId('card-use').click();
    await p.getByTestId('toast-success').filter({ hasText: '使用成功' }).waitFor();
    await laneCard.filter({ hasText: '已享受速进通道' }).waitFor();
    await p.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor();
    await p.getByTestId('queue-lane').filter({ hasText: /^会员速进通道$/ }).waitFor();
    assert.equal(await dialogP.locator('img').count(), 0, 'the game logo is hidden on member fast entry');
    assert.equal(await p.getByTestId('ad-gift_game_dialog').count(), 0, 'no dialog ad slot on member fast entry');
    await v.getByTestId('queue-rank').filter({ hasText: rankText(2) }).waitFor({ timeout: 10_000 });

    // --- on fast entry there is no retention: straight to the exit confirm
    await p.getByTestId('queue-exit').click();
    await box.waitFor();
    assert.equal(await p.getByTestId('retention-dialog').count(), 0);
    await box.getByRole('button', { name: '立即退出' }).click();
    await dialogP.waitFor({ state: 'detached' });
    await v.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor({ timeout: 10_000 });

    // --- 排队规则: the admission order, weights and the no-starvation bound
    await v.getByTestId('queue-rules').click();
    await v.waitForURL(/\/help\/queue$/);
    const rules = await v.getByTestId('queue-rules-page').innerText();
    for (const needle of ['先到先得', '1000', '2035', '不会被一直插队']) assert.ok(rules.includes(needle), `the rules mention ${needle}`);
    await v.getByTestId('float-queue').filter({ hasText: '排队中 第1位' }).waitFor();
  });
});

// Counts the boarding reminders a page shows: window.Notification replaced by a recorder.
const NOTIFICATION_STUB = () => {
  window.__notices = [];
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission() {
      return Promise.resolve('granted');
    }
    constructor(title, options) {
      window.__notices.push({ title, body: options && options.body });
    }
  }
  window.Notification = RecordingNotification;
};

test('ready reminder: two tabs of one player see READY, only one shows the notification', { timeout: 90_000 }, async () => {
  await withServer('ready', async ({ base, browser, pages }) => {
    const PHONE_R = '13900000021';
    const { ctx, page: r1 } = await player(browser, base, PHONE_R, NOTIFICATION_STUB);
    pages.R1 = r1;
    const r2 = (pages.R2 = await ctx.newPage());
    await r2.goto(`${base}/`);
    await r2.getByTestId('header-nickname').waitFor();
    await r2.waitForTimeout(800); // its socket opens 500 ms after start-up
    // the player goes back to the first tab; the second stays open in the background
    await r1.bringToFront();

    await openGameDetail(r1);
    await startOnNode(r1, PLAY_NODE);
    await r1.getByTestId('ready-dialog').waitFor();
    await r2.getByTestId('ready-dialog').waitFor({ timeout: 10_000 });
    // jitter (≤ 300 ms) + settle + the 3 s window are well inside this wait
    await r1.waitForTimeout(1500);
    const notices = [...(await r1.evaluate(() => window.__notices)), ...(await r2.evaluate(() => window.__notices))];
    assert.deepEqual(notices, [{ title: '登机提醒', body: '游戏已准备就绪，请返回网站确认启动' }], 'exactly one tab notified');

    await r1.getByTestId('ready-giveup').click();
    await r1.getByTestId('ready-dialog').waitFor({ state: 'detached' });
    await r1.waitForTimeout(500);
    const after = [...(await r1.evaluate(() => window.__notices)), ...(await r2.evaluate(() => window.__notices))];
    assert.equal(after.length, 1, 'no reminder after giving up');
  });
});

test('play time: a player with little time plays until 130125; the time-up dialog closes the game', { timeout: 90_000 }, async () => {
  await withServer('timeup', async ({ base, browser, pages }) => {
    const PHONE_T = '13900000031';
    // the setting that opens the play page in this window (core-platform.md §2.1)
    const { page: t } = await player(browser, base, PHONE_T, () => localStorage.setItem('yoo_play_in_current_window', '1'));
    pages.T = t;
    const profile = await grant(base, { cellphone: PHONE_T, kind: 'play_time', minutes: 1 });
    assert.ok(Number(profile.play_time_total) >= 1, `the grant added play time: ${JSON.stringify(profile)}`);

    await openGameDetail(t);
    await startOnNode(t, PLAY_NODE);
    await t.getByTestId('ready-dialog').waitFor();
    await t.getByTestId('ready-enter').click();
    await t.waitForURL(/\/game\/play\?gameId=1$/);

    // under 10 minutes left: the barrage; then the time runs out: the time-up dialog
    await t.getByTestId('barrage').filter({ hasText: /^游戏时长不足\d+分钟，请及时补充$/ }).waitFor({ timeout: 15_000 });
    const timeUp = t.getByTestId('time-up');
    await timeUp.waitFor({ timeout: 20_000 });
    assert.match(await timeUp.innerText(), /时长提醒/);
    await t.getByTestId('time-up-countdown').filter({ hasText: /^\d+秒后将退出游戏$/ }).waitFor();
    // 去充值 opens the yoodo purchase for time run out; closing it leaves the countdown running
    await t.getByTestId('time-up-recharge').click();
    const purchase = t.getByTestId('purchase-dialog');
    await purchase.getByTestId('goods-card').first().waitFor();
    await purchase.getByRole('button', { name: '关闭' }).click();
    await purchase.waitFor({ state: 'detached' });

    // 放弃 asks first; 继续充值 goes back; 放弃 twice closes the game and goes home
    await t.getByTestId('time-up-abandon').click();
    await t.getByTestId('time-up-confirm-text').filter({ hasText: '时长不足将退出游戏' }).waitFor();
    await t.getByTestId('time-up-keep').click();
    await t.getByTestId('time-up-countdown').waitFor();
    await t.getByTestId('time-up-abandon').click();
    await t.getByTestId('time-up-abandon-confirm').click();
    await t.waitForURL(`${base}/`);
    await t.getByTestId('toast-warning').filter({ hasText: '您的游戏时长已用完，游戏页面即将关闭' }).waitFor();
    await timeUp.waitFor({ state: 'detached' });

    // no play time left: a new start is refused with the use-up prompt
    await openGameDetail(t);
    await t.getByTestId('start-game').click();
    const nodeDialog = t.getByTestId('node-dialog');
    await nodeDialog.waitFor();
    await t.getByTestId(`node-status-${PLAY_NODE}`).filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
    await t.getByTestId(`node-${PLAY_NODE}`).click();
    await t.getByTestId('node-confirm').click();
    const useUp = t.getByTestId('use-up');
    await useUp.waitFor();
    assert.match(await useUp.innerText(), /时长提醒[\s\S]*可用游戏时长不足10分钟，请补充时长/);
    // 好的 opens the yoodo purchase for time run out (commerce.md §2.9)
    await t.getByTestId('use-up-ok').click();
    await useUp.waitFor({ state: 'detached' });
    await purchase.getByTestId('goods-card').first().waitFor();
    await purchase.getByRole('button', { name: '关闭' }).click();
    await purchase.waitFor({ state: 'detached' });
  });
});
