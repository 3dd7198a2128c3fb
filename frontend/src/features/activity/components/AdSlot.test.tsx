import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreProvider } from '../../../kernel/storeContext';
import { makeRoot, settle } from '../../../test/helpers';
import { AD_SLOTS_PATH } from '../stores/adStore';
import { AdSlot, AdSlotViewProvider } from '../../../components/AdSlot';
import AdSlotView from './AdSlotView';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const item = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  title: `广告${id}`,
  target_title: '',
  image: '',
  target_type: 3,
  target_value: 'buyCoin',
  need_login: true,
  sort: 0,
  start_at: 0,
  end_at: 0,
  pay_times: 0,
  paid_times: 0,
  out_of_pay_times: false,
  ...over,
});

async function mount(slots: Record<string, unknown[]>, node: (slot: string) => React.ReactNode) {
  const env = await makeRoot({ loggedIn: false });
  env.t.api.on('GET', AD_SLOTS_PATH, (q: { keys: string }) => q.keys.split(',').map((key) => ({ key, items: slots[key] ?? [] })));
  const host = document.createElement('div');
  document.body.appendChild(host);
  const r = createRoot(host);
  await act(async () => {
    r.render(
      <StoreProvider store={env.root}>
        <AdSlotViewProvider value={(p) => <AdSlotView {...p} />}>
          <MemoryRouter>
            {node('a')}
            {node('b')}
          </MemoryRouter>
        </AdSlotViewProvider>
      </StoreProvider>,
    );
  });
  // the view's chunk loads, then the slots are read (one request for both)
  for (let i = 0; i < 200 && env.t.api.callsTo(AD_SLOTS_PATH).length === 0; i++) {
    await act(async () => {
      await new Promise((res) => setTimeout(res, 10));
    });
  }
  await act(async () => {
    await settle(30);
  });
  return { ...env, host };
}

describe('AdSlot (commerce.md §2.15)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it("renders its items (an image, else the title), an out item greyed with its label; a slot without items stays empty", async () => {
    const { host, t } = await mount({ a: [item(1), item(2, { image: '/ads/time.svg' }), item(3, { target_type: 5, target_value: 'useup_60', pay_times: 1, out_of_pay_times: true })] }, (s) => (
      <AdSlot slot={s} />
    ));
    expect(t.api.callsTo(AD_SLOTS_PATH)).toHaveLength(1);
    const a = host.querySelector('[data-testid="ad-a"]')!;
    expect(a.querySelector('[data-testid="ad-item-1"]')!.textContent).toBe('广告1');
    expect(a.querySelector<HTMLImageElement>('[data-testid="ad-item-2"] img')!.alt).toBe('广告2');
    const out = a.querySelector<HTMLButtonElement>('[data-testid="ad-item-3"]')!;
    expect(out.disabled).toBe(true);
    expect(out.className).toContain('is-out');
    expect(out.textContent).toContain('已达购买上限');
    expect(host.querySelector('[data-testid="ad-b"]')!.innerHTML).toBe('');
  });

  it('a click needing a login opens the login dialog; an empty slot shows its fallback', async () => {
    const { host, root } = await mount({ a: [item(1)] }, (s) => <AdSlot slot={s} fallback={<button data-testid={`own-${s}`}>立即续费</button>} />);
    expect(host.querySelector('[data-testid="own-a"]')).toBeNull();
    expect(host.querySelector('[data-testid="own-b"]')).not.toBeNull();
    await act(async () => {
      host.querySelector<HTMLButtonElement>('[data-testid="ad-item-1"]')!.click();
      await settle();
    });
    expect(root.ui.loginOpen).toBe(true);
  });
});
