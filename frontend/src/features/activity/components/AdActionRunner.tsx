import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { adActionOfSearch, searchWithoutAction, URL_ACTION_DELAY_MS, type AdRequest } from '../../../lib/adAction';
import { isMemberProduct, isVvipProduct } from '../../../lib/products';
import { useStores } from '../stores/context';
import type { AppServices } from '../../../kernel/services';
import { errorMessage } from '../../../transport/apiError';

/** What this store needs from the others (the root store provides it). */
export type AdActionDeps = Pick<AppServices, 'api' | 'ui' | 'user' | 'openPurchase'>;

/** Carries out an ad's or a URL's action (commerce.md §2.15); need_login asks for a login first. */
export function runAdAction(root: AdActionDeps, req: AdRequest): void {
  if (req.needLogin && !root.user.isLoggedIn) {
    root.ui.openLogin(() => runAdAction(root, { ...req, needLogin: false }));
    return;
  }
  const a = req.action;
  switch (a.kind) {
    case 'purchase':
      root.openPurchase(a.type, a.category ? { category: a.category } : undefined);
      return;
    case 'section':
      root.openPurchase('time', { section: a.section });
      return;
    case 'goodsCode':
      root.api.get('/api/v3/shop/goods/item', { goods_code: a.goodsCode }).then(
        (goods) =>
          root.openPurchase(isMemberProduct(goods.type) ? 'member' : 'time', {
            goods,
            category: isVvipProduct(goods.type) ? 'vvip' : 'vip',
            ...(req.ad ? { ad: req.ad } : {}),
          }),
        (e: unknown) => root.ui.error(errorMessage(e)),
      );
      return;
    case 'dialog':
      // the live room's detail lives on the live page
      if (a.dialog === 'liveDetail') root.ui.navigate('/game/live');
      else root.ui.openMessages(root.user.isLoggedIn);
      return;
  }
}

/**
 * Runs the action a page URL carries (target_type, target_value, need_login) 1 s after the page
 * opens and the login state is known, then drops the parameters so that a reload does not run
 * it again. Mounted once in the page frame.
 */
export const AdActionRunner = observer(function AdActionRunner() {
  const root = useStores();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const ready = root.user.ready;
  useEffect(() => {
    if (!ready) return undefined;
    const req = adActionOfSearch(search);
    if (!req) return undefined;
    const t = setTimeout(() => {
      void navigate(`${pathname}${searchWithoutAction(search)}`, { replace: true });
      runAdAction(root, req);
    }, URL_ACTION_DELAY_MS);
    return () => clearTimeout(t);
  }, [ready, search, pathname, navigate, root]);
  return null;
});
