import { describe, expect, it } from 'vitest';
import type { CatalogueGame } from '../../../api/types';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { CollectStore, CollectText, pickBatch } from './collectStore';

function game(id: number, collected = false): CatalogueGame {
  return {
    id,
    name: `游戏${id}`,
    image: '',
    image_vertical: '',
    image_square: '',
    logo: `/covers/${id}/logo.svg`,
    status: 1,
    deleted: false,
    available: true,
    collected,
    member_type: null,
    instant_play: false,
  };
}

async function env(loggedIn = true, random: () => number = () => 0) {
  const e = await makeRoot({ loggedIn });
  return { ...e, store: new CollectStore(e.root, random) };
}

const toasts = (root: { ui: { toasts: { message: string }[] } }) => root.ui.toasts.map((t) => t.message);

describe('recently played and favourites (social.md §2.4, §4.11)', () => {
  it("a guest's collect opens the login dialog and calls nothing", async () => {
    const { root, store, t } = await env(false);
    await store.toggle(game(3));
    expect(root.ui.loginOpen).toBe(true);
    expect(t.api.callsTo('/api/user/game/collect')).toHaveLength(0);
  });

  it('collect then uncollect toggle the flag with their toasts and re-read the count', async () => {
    const { root, store, t } = await env();
    t.api.on('POST', '/api/user/game/collect', () => null);
    t.api.on('POST', '/api/user/game/collect/cancel', () => null);
    t.api.on('GET', '/api/v3/user/games/collected', () => ({ data: [game(3, true), game(7, true)], total: 2 }));
    await store.loadCollected();
    const g = game(5);
    const profileReads = t.api.callsTo('/api/user/profile').length;

    await store.toggle(g);
    expect(t.api.callsTo('/api/user/game/collect')[0].body).toEqual({ id: 5 });
    expect(store.isCollected(g)).toBe(true);
    expect(toasts(root)).toContain(CollectText.COLLECTED);
    expect(CollectText.COLLECTED).toBe('收藏成功');
    await settle();
    expect(t.api.callsTo('/api/user/profile').length).toBe(profileReads + 1);

    await store.toggle(game(3, true));
    expect(t.api.callsTo('/api/user/game/collect/cancel')[0].body).toEqual({ id: 3 });
    expect(store.isCollected(game(3, true))).toBe(false);
    expect(store.collected.map((x) => x.id)).toEqual([7]);
    expect(store.collectedTotal).toBe(1);
    expect(toasts(root)).toContain('取消收藏成功');
  });

  it('a refused collect shows the server message and keeps the flag', async () => {
    const { root, store, t } = await env();
    t.api.on('POST', '/api/user/game/collect', () => fail(130100, '游戏不存在'));
    await store.toggle(game(999));
    expect(store.isCollected(game(999))).toBe(false);
    expect(toasts(root)).toEqual(['游戏不存在']);
  });

  it('clearing asks first; cancelled it calls nothing, confirmed it empties the list', async () => {
    const { root, store, t } = await env();
    t.api.on('GET', '/api/v3/user/games/played', () => ({ data: [game(1), game(2)], total: 2 }));
    t.api.on('POST', '/api/user/games/played/delete', () => null);
    await store.loadPlayed();
    expect(t.api.callsTo('/api/v3/user/games/played')[0].body).toEqual({ page_size: 10, field: 'logo' });
    expect(store.played.map((g) => g.id)).toEqual([1, 2]);

    let done = store.clearPlayed();
    await settle();
    expect(root.ui.messageBoxes[0].message).toBe(CollectText.CLEAR_CONFIRM);
    root.ui.messageBoxes[0].resolve(false);
    expect(await done).toBe(false);
    expect(t.api.callsTo('/api/user/games/played/delete')).toHaveLength(0);
    expect(store.played).toHaveLength(2);

    done = store.clearPlayed();
    await settle();
    root.ui.messageBoxes[0].resolve(true);
    expect(await done).toBe(true);
    expect(t.api.callsTo('/api/user/games/played/delete')).toHaveLength(1);
    expect(store.played).toEqual([]);
    expect(toasts(root)).toContain('清空成功');
  });

  it('a failed read of the recent list is silent', async () => {
    const { root, store, t } = await env();
    t.api.on('GET', '/api/v3/user/games/played', () => fail(50000, '服务器开小差了'));
    await store.loadPlayed();
    expect(store.playedLoaded).toBe(true);
    expect(store.played).toEqual([]);
    expect(root.ui.toasts).toEqual([]);
  });

  it('guests read no recent list', async () => {
    const { store, t } = await env(false);
    t.api.on('GET', '/api/v3/user/games/played', () => ({ data: [game(1)], total: 1 }));
    await store.loadPlayed();
    expect(t.api.callsTo('/api/v3/user/games/played')).toHaveLength(0);
  });

  it('"Guess you like" shows 2 games of the favourite section and 换一批 shows 2 others', async () => {
    const { store, t } = await env(true, () => 0);
    t.api.on('GET', '/api/web/v1/section/game', () => ({ section_key: 'favorite_game', games: [1, 3, 5, 6, 9].map((id) => game(id)) }));
    await store.loadGuess();
    expect(t.api.callsTo('/api/web/v1/section/game')[0].body).toMatchObject({ section_key: 'favorite_game' });
    expect(store.guess.map((g) => g.id)).toEqual([1, 3]);
    store.changeBatch();
    expect(store.guess.map((g) => g.id)).toEqual([5, 6]);
    store.changeBatch();
    expect(store.guess.map((g) => g.id)).toEqual([1, 3]);
    await store.loadGuess();
    expect(t.api.callsTo('/api/web/v1/section/game')).toHaveLength(1);
  });

  it('pickBatch picks distinct games at random', () => {
    const pool = [1, 2, 3, 4].map((id) => ({ id }));
    const seq = [0.99, 0.5];
    let i = 0;
    const picked = pickBatch(pool, [], 2, () => seq[i++]);
    expect(picked.map((g) => g.id)).toEqual([4, 2]);
    expect(pickBatch([{ id: 1 }], [], 2, () => 0)).toEqual([{ id: 1 }]);
  });
});
