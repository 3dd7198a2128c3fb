import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreProvider } from '../../../kernel/storeContext';
import { makeRoot, QUEUE_RULES, settle } from '../../../test/helpers';
import { QueueRulesPage } from './QueueRulesPage';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('queue rules page', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  // The lanes, weights and the bound's W are whatever the server serves: nothing is restated here.
  it('shows the served lanes, weights and total weight', async () => {
    const { root, t } = await makeRoot();
    const served = { totalWeight: 1234, lanes: QUEUE_RULES.lanes.map((l) => (l.isFast === 3 ? { ...l, name: '某通道', weight: 77 } : l)) };
    t.api.on('GET', '/api/japi/yoo/game/queueRules', () => served);
    const host = document.createElement('div');
    document.body.appendChild(host);
    const r = createRoot(host);
    act(() =>
      r.render(
        <StoreProvider store={root}>
          <MemoryRouter>
            <QueueRulesPage />
          </MemoryRouter>
        </StoreProvider>,
      ),
    );
    await act(async () => settle());
    expect(host.querySelector('[data-testid="lane-weight-3"]')?.textContent).toBe('77');
    expect(host.textContent).toContain('某通道');
    expect(host.querySelector('[data-testid="queue-bound"]')?.textContent).toContain('1234');
    act(() => r.unmount());
  });
});
