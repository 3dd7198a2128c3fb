import { describe, expect, it, vi } from 'vitest';
import { FakeApi, fail } from '../../../test/fakeTransport';
import { AgreementStore, type AgreementDto } from './agreementStore';

const LIST = '/api/v3/user/agreement/list';
const CANCEL = '/api/v3/user/agreement/cancel';

const agreement = (no: string, state: number): AgreementDto => ({
  agreement_no: no,
  goods_code: 'vip_renew',
  title: 'VIP连续包月',
  amount_fen: 2500,
  state,
  next_at: 1_800_000_000_000,
  periods: 1,
  created_at: 0,
  cancelled_at: null,
});

function setup(confirmed = true) {
  const api = new FakeApi();
  const fx = { confirm: vi.fn(() => Promise.resolve(confirmed)), toast: vi.fn() };
  return { api, fx, store: new AgreementStore(api, fx) };
}

// The member page's auto-renewals: only the renewing ones show; cancelling asks first, tells
// the server, toasts and reads the list again; a refusal toasts its message.
describe('AgreementStore', () => {
  it('shows the renewing ones and cancels one after the confirm', async () => {
    const { api, fx, store } = setup();
    let state = 1;
    api.on('GET', LIST, () => [agreement('AG1', state), agreement('AG0', 2)]);
    api.on('POST', CANCEL, () => {
      state = 2;
      return agreement('AG1', 2);
    });
    await store.load();
    expect(store.shown.map((a) => a.agreement_no)).toEqual(['AG1']);
    expect(await store.cancel(store.shown[0])).toBe(true);
    expect(fx.confirm).toHaveBeenCalledWith(expect.stringContaining('确定取消「VIP连续包月」的自动续费吗'));
    expect(api.callsTo(CANCEL)[0].body).toEqual({ agreement_no: 'AG1' });
    expect(fx.toast).toHaveBeenCalledWith('success', '已取消自动续费');
    expect(store.shown).toEqual([]);
  });

  it('a declined confirm cancels nothing; a refusal toasts its message', async () => {
    const declined = setup(false);
    declined.api.on('GET', LIST, () => [agreement('AG1', 1)]);
    await declined.store.load();
    expect(await declined.store.cancel(declined.store.shown[0])).toBe(false);
    expect(declined.api.callsTo(CANCEL)).toHaveLength(0);

    const refused = setup();
    refused.api.on('GET', LIST, () => [agreement('AG1', 1)]);
    refused.api.on('POST', CANCEL, () => fail(20188, '自动续费协议不存在'));
    await refused.store.load();
    expect(await refused.store.cancel(refused.store.shown[0])).toBe(false);
    expect(refused.fx.toast).toHaveBeenCalledWith('error', '自动续费协议不存在');
  });
});
