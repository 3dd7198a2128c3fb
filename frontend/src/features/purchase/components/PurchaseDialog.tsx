import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import type { PurchaseStore } from '../stores/purchaseStore';
import { COIN_PAY_CODE } from '../stores/purchaseStore';
import { MAX_COUNT, MIN_COUNT, QrState, renewalUnit, yuan } from '../../../lib/purchase';
import type { Goods } from '../../../api/types';
import { memberName } from '../../../lib/member';
import { QrImage } from './QrImage';
import { CouponRow } from '../../coupon/components/CouponRow';
import { RechargeGiveTip } from '../../activity/components/RechargeGiveTip';
import '../purchase.css';

/** The QR's size on the payment step (commerce.md §9). */
const QR_PX = 210;

/** The total's figure: yuan, or '…' while the server's price is pending. */
const totalText = (fen: number | null): string => (fen === null ? '…' : yuan(fen));

/**
 * The purchase dialog of commerce.md §2.5: the list (or one product's detail), the QR step with
 * its status overlay, and the result. Reads the purchase store only; every request is the store's.
 */
export const PurchaseDialog = observer(function PurchaseDialog() {
  const { purchase } = useStores();
  if (!purchase || !purchase.isOpen || purchase.hidden) return null;
  const p = purchase;
  return (
    <Modal title={p.title} testId="purchase-dialog" width={p.step === 'qrcode' || p.step === 'result' ? 420 : 780} className="purchase" onClose={() => p.close()}>
      {p.step === 'list' && <ListStep p={p} />}
      {p.step === 'detail' && <DetailStep p={p} />}
      {p.step === 'qrcode' && <QrStep p={p} />}
      {p.step === 'result' && <ResultStep p={p} />}
    </Modal>
  );
});

const ListStep = observer(function ListStep({ p }: { p: PurchaseStore }) {
  return (
    <div className="purchase__list" data-testid="purchase-list" data-type={p.type}>
      <Account p={p} />
      {p.tabsVisible && <MemberTabs p={p} />}
      {p.section?.instruction && <p className="purchase__instruction">{p.section.instruction}</p>}
      {p.loading ? <div className="purchase__loading">加载中...</div> : <Carousel p={p} />}
      <Controls p={p} />
    </div>
  );
});

/** 1. the user and the coin balance with '充值'. */
const Account = observer(function Account({ p }: { p: PurchaseStore }) {
  const { user, ui } = useStores();
  const profile = user.profile;
  if (!profile) {
    return (
      <div className="purchase__account">
        <span>请先登录后再进行购买</span>
        <button type="button" className="btn btn--primary btn--sm" onClick={() => ui.openLogin()}>
          立即登录
        </button>
      </div>
    );
  }
  return (
    <div className="purchase__account" data-testid="purchase-account">
      <span className="purchase__nick">{user.displayName}</span>
      <span className="purchase__balance">
        云游币余额 <b data-testid="purchase-balance">{profile.balance ?? 0}</b>
      </span>
      {p.type !== 'coin' && (
        <button type="button" className="btn btn--ghost btn--sm" data-testid="purchase-recharge" onClick={() => void p.rechargeCoins()}>
          充值
        </button>
      )}
    </div>
  );
});

const MemberTabs = observer(function MemberTabs({ p }: { p: PurchaseStore }) {
  return (
    <div className="purchase__tabs" role="tablist">
      {(
        [
          ['vip', '标准会员'],
          ['vvip', '高级会员'],
        ] as const
      ).map(([c, label]) => (
        <button
          key={c}
          type="button"
          role="tab"
          aria-selected={p.category === c}
          className={`purchase__tab purchase__tab--${c}${p.category === c ? ' is-active' : ''}`}
          data-testid={`purchase-tab-${c}`}
          onClick={() => void p.setCategory(c)}
        >
          {label}
        </button>
      ))}
    </div>
  );
});

/** 3. the products, 3 per view for member types and 4 for others (commerce.md §2.5). */
const Carousel = observer(function Carousel({ p }: { p: PurchaseStore }) {
  const small = p.isMember && p.goods.length > 3;
  const shown = p.goods.slice(p.carouselStart, p.carouselStart + p.perView);
  const canPrev = p.carouselStart > 0;
  const canNext = p.carouselStart + p.perView < p.goods.length;
  return (
    <div className="carousel" data-testid="purchase-goods" data-per-view={p.perView}>
      {canPrev && (
        <button type="button" className="carousel__arrow carousel__arrow--prev" aria-label="上一组" onClick={() => p.slide(-1)}>
          ‹
        </button>
      )}
      <ul className={`carousel__track carousel__track--${p.perView}${small ? ' is-small' : ''}`}>
        {shown.map((g, i) => {
          const index = p.carouselStart + i;
          return (
            <li key={g.id}>
              <GoodsCard g={g} selected={index === p.selectedIndex} onPick={() => p.select(index)} onDetail={() => p.showDetail(index)} />
            </li>
          );
        })}
      </ul>
      {canNext && (
        <button type="button" className="carousel__arrow carousel__arrow--next" aria-label="下一组" onClick={() => p.slide(1)}>
          ›
        </button>
      )}
    </div>
  );
});

function GoodsCard({ g, selected, onPick, onDetail }: { g: Goods; selected: boolean; onPick: () => void; onDetail: () => void }) {
  return (
    <div
      role="radio"
      tabIndex={0}
      aria-checked={selected}
      className={`goods-card${selected ? ' is-selected' : ''}`}
      data-testid="goods-card"
      data-code={g.code}
      onClick={onPick}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onPick();
        }
      }}
    >
      {labelTitle(g.label) && <span className="goods-card__label">{labelTitle(g.label)}</span>}
      <div className="goods-card__title">{g.title}</div>
      <div className="goods-card__price">
        ¥<b>{yuan(g.price)}</b>
      </div>
      {g.crossed_price > g.price && <div className="goods-card__crossed">¥{yuan(g.crossed_price)}</div>}
      {g.month_price > 0 && <div className="goods-card__month">折合¥{yuan(g.month_price)}/月</div>}
      <button
        type="button"
        className="goods-card__more"
        onClick={(e) => {
          e.stopPropagation();
          onDetail();
        }}
      >
        详情
      </button>
    </div>
  );
}

/** The goods' label: a JSON string `{title, effect}` (commerce.md §3); its title, or nothing. */
function labelTitle(label: string): string {
  if (!label) return '';
  try {
    const v = JSON.parse(label) as { title?: unknown };
    return typeof v?.title === 'string' ? v.title : '';
  } catch {
    return '';
  }
}

/** 4–12: renewal info, quantity, pay method, total, agreements, pay button. */
const Controls = observer(function Controls({ p }: { p: PurchaseStore }) {
  const g = p.selected;
  if (!g) return null;
  return (
    <div className="purchase__controls">
      {g.external?.cycleable && (
        <p className="purchase__renewal" data-testid="purchase-renewal">
          首月仅{yuan(g.external.first_price)}元，到期自动续费{yuan(g.retail_price)}元/{renewalUnit(g.face_value)}，可随时取消
        </p>
      )}
      {p.showsCount && (
        <div className="purchase__row">
          <span className="purchase__label">购买数量</span>
          <div className="stepper">
            <button type="button" className="stepper__btn" aria-label="减少" disabled={p.count <= MIN_COUNT} onClick={() => p.setCount(p.count - 1)}>
              −
            </button>
            <input
              className="stepper__input"
              data-testid="purchase-count"
              inputMode="numeric"
              value={p.count}
              onChange={(e) => p.setCount(e.target.value)}
              aria-label="购买数量"
            />
            <button type="button" className="stepper__btn" aria-label="增加" disabled={p.count >= MAX_COUNT} onClick={() => p.setCount(p.count + 1)}>
              +
            </button>
          </div>
        </div>
      )}
      <CouponRow c={p.coupon} />
      <div className="purchase__row">
        <span className="purchase__label">支付方式</span>
        <div className="pay-methods" role="radiogroup" aria-label="支付方式">
          {p.payMethods.map((m) => (
            <button
              key={m.payCode}
              type="button"
              role="radio"
              aria-checked={p.payMethod === m.payCode}
              className={`pay-method pay-method--${m.payCode}${p.payMethod === m.payCode ? ' is-active' : ''}`}
              data-testid={`pay-${m.payCode}`}
              onClick={() => p.setPayMethod(m.payCode)}
            >
              {m.payName}
            </button>
          ))}
        </div>
        {p.payMethods.some((m) => m.payCode === COIN_PAY_CODE) && p.type !== 'coin' && <RechargeGiveTip />}
      </div>
      <div className="purchase__total">
        <span className="purchase__label">合计应付</span>
        {/* the server's total for this selection; '…' until it has answered */}
        <span className="purchase__amount" data-testid="purchase-total" data-pending={p.totalFen === null ? 'true' : undefined}>
          {p.payMethod === COIN_PAY_CODE ? (
            <>
              <b>{totalText(p.totalFen)}</b> 云游币
            </>
          ) : (
            <>
              ¥<b>{totalText(p.totalFen)}</b>
            </>
          )}
        </span>
        {p.savedFen > 0 && <span className="purchase__saved">已为你节省¥{yuan(p.savedFen)}</span>}
      </div>
      <label className="purchase__agree">
        <input type="checkbox" checked={p.agreed} onChange={(e) => p.setAgreed(e.target.checked)} />
        <span>
          我已阅读并同意《用户服务协议》{p.isMember && '《会员服务协议》'}
          {g.external.cycleable && '《自动续费服务协议》'}
        </span>
      </label>
      <button
        type="button"
        className="btn btn--primary btn--lg btn--block"
        data-testid="purchase-pay"
        disabled={p.submitting || !p.payMethod}
        onClick={() => void p.submit()}
      >
        {p.payText}
      </button>
    </div>
  );
});

const DetailStep = observer(function DetailStep({ p }: { p: PurchaseStore }) {
  const g = p.selected;
  if (!g) return null;
  return (
    <div className="purchase__detail" data-testid="purchase-detail">
      <div className="purchase__detail-goods">
        {p.section && (
          <button type="button" className="purchase__back" onClick={() => p.backToList()}>
            返回
          </button>
        )}
        {g.image && <img className="purchase__image" src={g.image} alt="" />}
        <h3 className="purchase__detail-title">{g.title}</h3>
        <div className="goods-card__price">
          ¥<b>{yuan(g.price)}</b>
          {g.crossed_price > g.price && <s className="goods-card__crossed">¥{yuan(g.crossed_price)}</s>}
        </div>
        {g.month_price > 0 && <div className="goods-card__month">折合¥{yuan(g.month_price)}/月</div>}
        {g.up && (
          <div className="purchase__upgrade" data-testid="purchase-upgrade">
            <p>
              {memberName(g.up.up_from)}剩余{g.up.up_days}天
            </p>
            <p>
              可享{yuan(g.up.unit_price)}元/天升级{memberName(g.up.up_to)}
            </p>
          </div>
        )}
        {g.introduction && (
          <ul className="purchase__intro">
            {g.introduction.split('\n').map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        )}
        {g.give_goods_name && <p className="purchase__gift">赠送：{g.give_goods_name}</p>}
      </div>
      <div className="purchase__detail-side">
        <Account p={p} />
        <Controls p={p} />
      </div>
    </div>
  );
});

const QrStep = observer(function QrStep({ p }: { p: PurchaseStore }) {
  const qr = p.qr;
  const overlay = p.qrOverlay;
  const method = p.payMethods.find((m) => m.payCode === p.payMethod);
  return (
    <div className="purchase__qr" data-testid="purchase-qr-step">
      <button type="button" className="purchase__back" data-testid="purchase-qr-back" onClick={() => p.back()}>
        返回
      </button>
      <p className="purchase__chosen" data-testid="purchase-chosen">
        {p.chosenLine}
      </p>
      <p className="purchase__payable">
        需支付 <b data-testid="purchase-payable">¥{yuan(p.order?.payable ?? 0)}</b>
      </p>
      <div className="qr-pay" style={{ width: QR_PX, height: QR_PX }} data-testid="purchase-qr" data-state={qr?.state} data-url={qr?.url || undefined}>
        {qr && qr.url && <QrImage text={qr.url} size={QR_PX} />}
        {overlay && (
          <div className="qr-pay__overlay" data-testid="purchase-qr-overlay">
            {/* the spec's scanned text carries a line break as <br /> */}
            <span className="qr-pay__text">
              {overlay.text.split('<br />').map((line, i) => (
                <span key={i}>{line}</span>
              ))}
            </span>
            {overlay.action && (
              <button type="button" className="btn btn--primary btn--sm" data-testid="purchase-qr-action" onClick={() => p.overlayAction()}>
                {overlay.actionText}
              </button>
            )}
          </div>
        )}
        {qr?.state === QrState.LOADING && <span className="qr-pay__spinner" aria-hidden="true" />}
      </div>
      {method && (
        <p className={`purchase__pay-desc pay-method--${method.payCode}`} data-testid="purchase-pay-desc">
          {method.desc || `请使用${method.payName}扫码支付`}
        </p>
      )}
    </div>
  );
});

const ResultStep = observer(function ResultStep({ p }: { p: PurchaseStore }) {
  return (
    <div className="purchase__result" data-testid="purchase-result">
      <div className="purchase__result-icon" aria-hidden="true">
        ✓
      </div>
      <h3 className="purchase__result-title">支付成功</h3>
      <p className="purchase__result-line" data-testid="purchase-result-line">
        {p.resultLine}
      </p>
      <button type="button" className="btn btn--primary" data-testid="purchase-done" onClick={() => p.close()}>
        完成
      </button>
    </div>
  );
});
