// Browser tests of the ad slots (commerce.md §2.2, §2.9, §2.15, §8 70109) against the real
// yoo-server in dev mode: an operator puts a section ad (a goods with a per-user limit of one
// purchase) in the header's slot; the player sees it, clicking it opens the purchase of its
// goods, paid through the sandbox; the ad then reads out of pay times; raised to two and
// reached meanwhile from elsewhere, the next pay answers 70109 and the page marks the ad. The
// use-up prompt of a player without play time shows the app-download guide (the app's first
// login gives play time, none to use) and its ad slot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, openGameDetail, postJson, withServer as withServerOf } from './helpers.mjs';

function config(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { first_app_login_minutes: 30, register_gift_minutes: 0 },
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }],
  });
}

const withServer = (tag, body) => withServerOf(tag, config, body);

/** Sets a slot's items through the dev route; resolves the stored items. */
async function setSlot(base, key, items) {
  const env = await postJson(`${base}/api/dev/ad/slot`, { key, items });
  assert.equal(env?.code, 0, `set ${key}: ${JSON.stringify(env)}`);
  return env.data.items;
}

/** A purchase made with the page's login from outside the page (another device of the player). */
async function submitAs(page, base, body) {
  const cookies = await page.context().cookies(base);
  const csrf = cookies.find((c) => c.name === '_csrfToken')?.value ?? '';
  const res = await fetch(`${base}/api/payment/goods`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'x-csrf-token': csrf,
      'Idempotency-Key': `elsewhere-${Date.now()}`,
    },
    body: JSON.stringify(body),
  });
  return res.json();
}

const AD = { title: '畅玩时长5小时 限购1次', target_type: 5, target_value: 'time_300', need_login: true, pay_times: 1 };

test('a header ad opens its purchase; after its limit it reads out of pay times, and 70109 marks it', { timeout: 120_000 }, async () => {
  await withServer('ads-header', async ({ base, browser, pages }) => {
    const [stored] = await setSlot(base, 'header_right', [AD]);
    const id = stored.id;
    const { page } = await newPlayer(browser, base, '13900000901', { expectGift: false });
    pages.player = page;

    const slot = page.getByTestId('ad-header_right');
    const item = slot.getByTestId(`ad-item-${id}`);
    await item.waitFor();
    assert.equal((await item.innerText()).trim(), AD.title);
    assert.equal(await item.isEnabled(), true);

    // the click opens the purchase of the ad's goods; paid by QR on the sandbox's pay page
    await item.click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    await dialog.getByText('畅玩时长5小时').first().waitFor();
    await dialog.getByTestId('pay-wechat').click();
    await dialog.getByTestId('purchase-pay').click();
    await dialog.getByTestId('purchase-qr-step').waitFor();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });
    await phone.close();

    // one purchase of one allowed: out of pay times, greyed with its label, not clickable
    await slot.getByTestId(`ad-out-${id}`).filter({ hasText: '已达购买上限' }).waitFor();
    assert.equal(await item.isEnabled(), false);
    await page.reload();
    await slot.getByTestId(`ad-out-${id}`).waitFor();
    assert.equal(await item.getAttribute('data-out'), '1', 'the server says so after a reload too');

    // the limit raised to two: clickable again; the purchase opens, and meanwhile another
    // device of the player buys through the ad: the pay answers 70109 and marks the ad
    await setSlot(base, 'header_right', [{ ...AD, id, pay_times: 2 }]);
    await page.reload();
    await item.waitFor();
    assert.equal(await slot.getByTestId(`ad-out-${id}`).count(), 0);
    await item.click();
    await dialog.getByText('畅玩时长5小时').first().waitFor();
    await dialog.getByTestId('pay-wechat').click();
    const elsewhere = await submitAs(page, base, { goods_id: 0, goods_code: 'time_300', goods_num: 1, pay_method: 'wechat', ad_id: id });
    assert.equal(elsewhere.code, 0, JSON.stringify(elsewhere));
    await dialog.getByTestId('purchase-pay').click();
    await page.getByTestId('toast-error').filter({ hasText: '该商品购买次数已达上限' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await slot.getByTestId(`ad-out-${id}`).waitFor();
    assert.equal(await item.isEnabled(), false);
  });
});

test('the use-up prompt: the app-download guide and its ad slot', { timeout: 90_000 }, async () => {
  await withServer('ads-useup', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000902', { expectGift: false });
    pages.player = page;
    // no play time (no registration gift here): a start is refused with the use-up prompt
    await openGameDetail(page);
    await page.getByTestId('start-game').click();
    await page.getByTestId('node-dialog').waitFor();
    await page.getByTestId('node-status-1').filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
    await page.getByTestId('node-1').click();
    await page.getByTestId('node-confirm').click();
    const useUp = page.getByTestId('use-up');
    await useUp.waitFor();
    assert.match(await useUp.innerText(), /可用游戏时长不足10分钟，请补充时长/);
    const guide = useUp.getByTestId('use-up-app-guide');
    await guide.waitFor();
    assert.match(await guide.innerText(), /下载移动端领取专属福利/);
    const qr = guide.locator('svg');
    assert.equal(await qr.getAttribute('width'), '72');
    assert.equal(await qr.getAttribute('data-text'), `${base}/download`);
    // the seeded gift ad of the use-up slot: a section ad of the 1-hour top-up
    const ad = useUp.getByTestId('ad-gift_playtime_useup').locator('[data-testid^="ad-item-"]');
    await ad.first().waitFor();
    assert.equal(await ad.first().locator('img').getAttribute('alt'), '续玩时长1小时 限购2次');
  });
});
