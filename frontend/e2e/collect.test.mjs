// Recently played and favourites (social.md §2.4, §4.11): a player collects a game on its
// detail page ('收藏成功'), finds it in the header popover's 我的收藏 and on /user/collect, and
// uncollects it ('取消收藏成功'); plays a game and finds it under 最近玩过; clears the records
// after the confirmation ('清空成功'); a guest's collect opens the login dialog.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayerContext, newPlayer, openGameDetail, startOnNode, withServer } from './helpers.mjs';

/** 赛博霓虹: a seeded game without a tip */
const GAME = 3;

function config(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { connect_countdown_secs: 60, connect_delay_ms: 300 },
    nodes: [{ id: 1, name: '畅玩一区', machines: ['c-01'] }],
  });
}

/** Opens the header's recent popover on a tab. */
async function openPopover(page, tab) {
  await page.getByTestId('header-recent').click();
  const popover = page.getByTestId('recent-popover');
  await popover.waitFor();
  await popover.getByTestId(`recent-tab-${tab}`).click();
  return popover;
}

async function closePopover(page) {
  await page.mouse.move(5, 600);
  await page.getByTestId('recent-popover').waitFor({ state: 'detached' });
}

test('collect, recently played, clearing, and a guest asked to log in', { timeout: 120_000 }, async () => {
  await withServer('collect', config, async ({ base, browser, pages }) => {
    // a guest's collect opens the login dialog
    const guestCtx = await newPlayerContext(browser);
    const guest = await guestCtx.newPage();
    pages.guest = guest;
    await guest.goto(`${base}/game/detail/${GAME}`);
    await guest.getByTestId(`collect-${GAME}`).click();
    await guest.getByTestId('login-dialog').waitFor();
    assert.equal(await guest.getByTestId('header-recent').count(), 0, 'no recent popover for a guest');
    await guestCtx.close();
    delete pages.guest;

    const { ctx, page } = await newPlayer(browser, base, '13900007401');
    pages.main = page;

    // empty at first: the empty state and "Guess you like" with 换一批
    let popover = await openPopover(page, 'played');
    await popover.getByTestId('recent-played-empty').filter({ hasText: '暂无最近玩过的记录' }).waitFor();
    await popover.getByTestId('guess-you-like').waitFor();
    assert.equal(await popover.getByTestId('guess-you-like').locator('.recent-item').count(), 2);
    await popover.getByTestId('guess-change').click();
    await closePopover(page);

    // collect on the detail page
    await openGameDetail(page, GAME);
    const button = page.getByTestId(`collect-${GAME}`);
    assert.match(await button.innerText(), /收藏/);
    await button.click();
    await page.getByTestId('toast-success').filter({ hasText: '收藏成功' }).waitFor();
    await button.filter({ hasText: '已收藏' }).waitFor();

    popover = await openPopover(page, 'collected');
    await popover.getByTestId(`recent-collected-${GAME}`).waitFor();
    await popover.getByTestId('recent-view-all').click();
    await page.waitForURL(/\/user\/collect$/);
    await page.getByTestId('collect-page').getByTestId(`game-card-${GAME}`).waitFor();
    assert.match(await page.getByTestId('collect-total').innerText(), /共 1 款/);

    // uncollect from the detail page after a reload: the server's flag says collected
    await page.goto(`${base}/game/detail/${GAME}`);
    await page.getByTestId(`collect-${GAME}`).filter({ hasText: '已收藏' }).click();
    await page.getByTestId('toast-success').filter({ hasText: '取消收藏成功' }).waitFor();
    await page.getByTestId(`collect-${GAME}`).filter({ hasText: /^☆ 收藏$/ }).waitFor();
    popover = await openPopover(page, 'collected');
    await popover.getByTestId('recent-collected-empty').waitFor();
    await closePopover(page);

    // play the game: confirm the ready dialog, the play window opens, the game plays
    await startOnNode(page, 1);
    const ready = page.getByTestId('ready-dialog');
    await ready.waitFor();
    const [play] = await Promise.all([ctx.waitForEvent('page'), ready.getByTestId('ready-enter').click()]);
    pages.play = play;
    await play.getByTestId('play-status').filter({ hasText: '游戏中' }).waitFor();

    popover = await openPopover(page, 'played');
    await popover.getByTestId(`recent-played-${GAME}`).waitFor();
    assert.match(await popover.getByTestId('recent-played').innerText(), /赛博霓虹/);

    // clearing asks first: cancelled, the list stays; confirmed, it empties
    await popover.getByTestId('recent-clear').click();
    let box = page.getByTestId('message-box');
    await box.waitFor();
    assert.match(await box.innerText(), /记录清空后将无法恢复，确认清空吗？/);
    await box.getByTestId('message-box-cancel').click();
    await box.waitFor({ state: 'detached' });
    popover = await openPopover(page, 'played');
    await popover.getByTestId(`recent-played-${GAME}`).waitFor();
    await popover.getByTestId('recent-clear').click();
    box = page.getByTestId('message-box');
    await box.getByTestId('message-box-confirm').click();
    await page.getByTestId('toast-success').filter({ hasText: '清空成功' }).waitFor();
    popover = await openPopover(page, 'played');
    await popover.getByTestId('recent-played-empty').waitFor();
  });
});
