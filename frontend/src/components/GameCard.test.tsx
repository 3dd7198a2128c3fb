import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CatalogueGame } from '../api/types';
import { GameCard } from './GameCard';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const base: CatalogueGame = {
  id: 9,
  name: '艾尔登法环',
  image: '',
  image_vertical: '',
  image_square: '',
  logo: '',
  status: 1,
  deleted: false,
  available: true,
  collected: false,
  member_type: 'vvip',
  instant_play: true,
};

function render(game: CatalogueGame, onOpen: (g: CatalogueGame) => void) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  act(() => root.render(<GameCard game={game} onOpen={onOpen} />));
  return { host, root };
}

describe('GameCard', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('shows 秒玩 and the VVIP badge and opens on click', () => {
    const onOpen = vi.fn();
    const { host, root } = render(base, onOpen);
    expect(host.textContent).toContain('秒玩');
    expect(host.textContent).toContain('VVIP');
    act(() => host.querySelector<HTMLElement>('[data-testid="game-card-9"]')!.click());
    expect(onOpen).toHaveBeenCalledWith(base);
    act(() => root.unmount());
  });

  it('a coming-soon game is greyed, labelled 即将上架 and not clickable', () => {
    const onOpen = vi.fn();
    const { host, root } = render({ ...base, status: 0 }, onOpen);
    const card = host.querySelector<HTMLElement>('[data-testid="game-card-9"]')!;
    expect(card.className).toContain('is-disabled');
    expect(card.textContent).toContain('即将上架');
    act(() => card.click());
    expect(onOpen).not.toHaveBeenCalled();
    act(() => root.unmount());
  });
});
