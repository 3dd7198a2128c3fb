import { fail, FakeApi } from '../../../test/fakeTransport';
import { SubscriptionStore } from './subscriptionStore';

describe('SubscriptionStore', () => {
  it("reads the player's subscriptions and a package's zone", async () => {
    const api = new FakeApi();
    api.on('GET', '/api/v3/user/subscription', () => [{ package_id: 401, title: '沙海商队订阅包', status: 1, expired_at: 1, game: { id: 19 } }]);
    api.on('GET', '/api/shop/goods/game-package/zone', () => ({ package: { id: 401, speci_list: [] }, games: [{ id: 19 }] }));
    const s = new SubscriptionStore(api);
    await s.loadMine();
    expect(s.subscriptions?.[0].package_id).toBe(401);
    await s.loadZone(401);
    expect(api.callsTo('/api/shop/goods/game-package/zone')[0].body).toEqual({ package_id: 401 });
    expect(s.zone?.games[0].id).toBe(19);
  });

  it('a bad id or an unknown package shows an error, without or with a call', async () => {
    const api = new FakeApi();
    api.on('GET', '/api/shop/goods/game-package/zone', () => fail(20180, '商品不存在或已下架'));
    const s = new SubscriptionStore(api);
    await s.loadZone(Number('x'));
    expect(s.error).toBe('订阅包不存在');
    expect(api.callsTo('/api/shop/goods/game-package/zone')).toHaveLength(0);
    await s.loadZone(5);
    expect(s.error).toBe('商品不存在或已下架');
  });
});
