// A browser test of the message centre (social.md §2.2, §2.9, §4.10) against the real yoo-server
// in dev mode: a new player sees the header's red dot, opens the centre and finds the welcome
// message; the operator's announcement (the token route) brings the dot back through the
// socket's NEW_MESSAGE; 全部已读 ('标记为已读成功') clears the dot; 清空消息 ('清空成功') empties
// the list ('暂无消息'). A guest clicking the messages icon gets the login dialog, and the
// centre's page sends a guest to /.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, withServer } from './helpers.mjs';

const TOKEN = 'e2e-operator-token-for-messages';

function messagesConfig(dataDir) {
  const sha = createHash('sha256').update(TOKEN).digest('hex');
  // a top-level key goes before the first table
  return `operator_token_sha256 = "${sha}"\n${configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }] })}`;
}

async function announce(base, body) {
  const r = await fetch(`${base}/api/ops/msg/announce`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': TOKEN, 'x-skip-csrf': 'true' },
    body: JSON.stringify(body),
  });
  const env = await r.json();
  assert.equal(env.code, 0, `announce: ${JSON.stringify(env)}`);
  return env.data;
}

test('the message centre: welcome, an announcement through the socket, mark read, clear; a guest logs in first', { timeout: 120_000 }, async () => {
  await withServer('messages', messagesConfig, async ({ base, browser, pages }) => {
    // a guest: the icon opens the login dialog; the page sends them home
    const guestCtx = await newPlayerContext(browser);
    const guest = await guestCtx.newPage();
    pages.guest = guest;
    await guest.goto(`${base}/`);
    await guest.getByTestId('header-messages').click();
    await guest.getByTestId('login-dialog').waitFor();
    assert.equal(await guest.getByTestId('message-dialog').count(), 0);
    await guest.goto(`${base}/message`);
    await guest.waitForURL(`${base}/`);
    await guestCtx.close();

    // a new player: the dot (the welcome and the coupons' welfare message)
    const { page } = await newPlayer(browser, base, '13900000901');
    pages.player = page;
    const dot = page.getByTestId('header-messages-dot');
    await dot.waitFor();

    await page.getByTestId('header-messages').click();
    const dialog = page.getByTestId('message-dialog');
    await dialog.waitFor();
    const list = dialog.getByTestId('message-list');
    await list.getByText('欢迎来到云游').waitFor();
    assert.match(await dialog.getByTestId('message-tab-1').innerText(), /系统消息[\s\S]*欢迎来到云游/);
    await dialog.getByTestId('message-tab-dot-1').waitFor();
    await dialog.getByTestId('message-no-more').waitFor();
    // the system tab shows the welcome alone
    await dialog.getByTestId('message-tab-1').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message-item"]').length === 1);
    await dialog.getByTestId('message-tab-all').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message-item"]').length === 2);

    // mark all read: the dot goes
    await dialog.getByTestId('message-read-all').click();
    await page.getByText('标记为已读成功').waitFor();
    await dot.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'detached' });

    // the operator's announcement: the dot comes back through the socket, without a reload
    await announce(base, { name: '周末双倍时长', content: '本周末所有游戏时长双倍', link: '/game' });
    await dot.waitFor();
    await page.getByTestId('header-messages').click();
    await dialog.waitFor();
    await list.getByText('周末双倍时长').waitFor();
    await dialog.getByTestId('message-tab-dot-4').waitFor();
    assert.match(await dialog.getByTestId('message-tab-4').innerText(), /官方公告[\s\S]*周末双倍时长/);
    await dialog.getByTestId('message-read-all').click();
    await dot.waitFor({ state: 'detached' });

    // clear all: the list is empty
    await dialog.getByTestId('message-clear').click();
    await page.getByText('清空成功').waitFor();
    await dialog.getByTestId('message-empty').filter({ hasText: '暂无消息' }).waitFor();
    assert.equal(await list.getByTestId('message-item').count(), 0);

    // the guardian page is reachable from the centre
    await dialog.getByTestId('message-children').click();
    await page.waitForURL(`${base}/children`);
    assert.equal(await page.getByTestId('message-dialog').count(), 0, 'the dialog closed with the link');
  });
});
