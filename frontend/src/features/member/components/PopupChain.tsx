import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AdSlot } from '../../../components/AdSlot';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { backpackPath } from '../../backpack/stores/backpackStore';
import { EXPIRE_NEAR, EXPIRY_PRIVILEGES, POPUP_DELAY_MS, PopupChainStore } from '../popupChain';
import '../member.css';

function siteStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The system popup chain (commerce.md §2.8, §4.7): 1 s after a login it takes the login flags
 * and shows the member expiry popup, then the card notices; the card notice waits while the
 * purchase dialog the expiry popup opened is up.
 */
export const PopupChain = observer(function PopupChain() {
  const root = useStores();
  const { user, api } = root;
  const navigate = useNavigate();
  const [chain] = useState(() => new PopupChainStore(api, { storage: siteStorage(), now: () => Date.now() }));
  const flags = user.justLoggedIn;

  useEffect(() => {
    if (!flags) return undefined;
    const timer = setTimeout(() => {
      const taken = user.takeLoginFlags();
      if (taken) void chain.run(taken.uid, taken.isNew);
    }, POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [flags, user, chain]);

  useEffect(() => {
    if (!user.isLoggedIn) {
      chain.closeCards();
      if (chain.expiry) void chain.closeExpiry(true);
    }
  }, [user.isLoggedIn, chain]);

  const expiry = chain.expiry;
  if (expiry) {
    return (
      <Modal title={expiry.title} testId="member-expire" width={400} onClose={() => void chain.closeExpiry(true)} className="member-expire">
        <ul className="member-expire__privileges">
          {EXPIRY_PRIVILEGES.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
        {expiry.message && <p className="member-expire__message">{expiry.message}</p>}
        {expiry.privilegeHint && <p className="member-expire__hint">{expiry.privilegeHint}</p>}
        {/* §2.8: its button is the ad slot member_expire; without items, the popup's own */}
        <AdSlot
          slot="member_expire"
          onItemClick={() => void chain.closeExpiry(false)}
          fallback={
            <button
              type="button"
              className={`btn btn--block header__member header__member--${expiry.category}`}
              data-testid="member-expire-buy"
              onClick={() => {
                root.openPurchase('member', { category: expiry.category });
                void chain.closeExpiry(false);
              }}
            >
              {expiry.expireType === EXPIRE_NEAR ? '立即续费' : '重新开通'}
            </button>
          }
        />
      </Modal>
    );
  }
  const cards = chain.cards;
  if (!cards || root.purchase?.isOpen) return null;
  const go = (path: string) => {
    chain.closeCards();
    void navigate(path);
  };
  if (cards.kind === 'coupons') {
    return (
      <Modal
        title="优惠券即将过期"
        testId="card-notice"
        width={360}
        onClose={() => chain.closeCards()}
        footer={
          <button type="button" className="btn btn--primary btn--block" data-testid="card-notice-view" onClick={() => go(backpackPath('coupon'))}>
            立即查看
          </button>
        }
      >
        <p className="member-expire__message">你有{cards.count}张优惠券即将过期</p>
      </Modal>
    );
  }
  return (
    <Modal
      title="恭喜获得"
      testId="card-notice"
      width={360}
      onClose={() => chain.closeCards()}
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="card-notice-view" onClick={() => go(backpackPath('card'))}>
          去背包查看
        </button>
      }
    >
      <ul className="member-expire__gifts">
        {cards.items.map((i) => (
          <li key={`${i.card_type}-${i.id}`}>
            <span>{i.name}</span>
            <span>{i.face_value_txt}</span>
          </li>
        ))}
      </ul>
      <p className="member-expire__hint">请注意有效期</p>
    </Modal>
  );
});
