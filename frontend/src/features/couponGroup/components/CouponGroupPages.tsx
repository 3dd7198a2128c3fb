import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import type { GroupRecord, GroupRecordDetail } from '../../../api/types';
import { Modal } from '../../../components/Modal';
import { QrImage } from '../../purchase/components/QrImage';
import '../../purchase/purchase.css';
import { CouponGroupText, transferLine, yuan2 } from '../../../lib/couponGroup';
import { useStores } from '../stores/context';
import { errorMessage } from '../../../transport/apiError';
import { CouponGroupPaths, CouponGroupStore, GROUP_PAY_METHODS } from '../stores/couponGroupStore';
import '../couponGroup.css';

const STATE_TEXT: Record<string, string> = {
  created: '待支付',
  paid: '已支付',
  fulfilled: '已完成',
  expired: '已过期',
  cancelled: '已取消',
  refunded: '已退款',
};

function useGroupStore(): CouponGroupStore {
  const root = useStores();
  const store = useMemo(() => new CouponGroupStore(root), [root]);
  useEffect(() => () => store.dispose(), [store]);
  return store;
}

/** The bankResult step: the countdown, the amount, the order number and the instructions. */
const BankResult = observer(function BankResult({ store }: { store: CouponGroupStore }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  const o = store.order?.order;
  if (!o) return null;
  return (
    <div className="cg-bank" data-testid="cg-bank">
      <p className="cg-bank__countdown" data-testid="cg-countdown">
        {transferLine(store.secondsLeft(now))}
      </p>
      <p>
        转账金额 <b data-testid="cg-bank-amount">¥{yuan2(o.payable)}</b>
      </p>
      <p>
        订单号 <span data-testid="cg-order-no">{o.order_no}</span>{' '}
        <button type="button" className="btn btn--sm" onClick={() => void store.copy(o.order_no)}>
          {CouponGroupText.COPY}
        </button>
      </p>
      {store.bank?.sections.map((s) => (
        <section key={s.title} className={`cg-bank__section cg-bank__section--${s.listClass}`}>
          <h3>{s.title}</h3>
          {s.list.map((item) => (
            <div key={item.text} className="cg-bank__item">
              <p>{item.text}</p>
              {item.desc && <p className="cg-muted">{item.desc}</p>}
              <h4>{item.content.title}</h4>
              <ul>
                {item.content.list.map((v) => (
                  <li key={v.name}>
                    {v.name}：<span>{v.value}</span>{' '}
                    {v.copy && (
                      <button type="button" className="btn btn--sm" onClick={() => void store.copy(v.value)}>
                        {CouponGroupText.COPY}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
      <PaidCheck store={store} />
    </div>
  );
});

/** After the poll's 120 s: '已付款完成' and the feedback link (§2.5). */
const PaidCheck = observer(function PaidCheck({ store }: { store: CouponGroupStore }) {
  if (!store.pollStopped) return null;
  return (
    <p className="cg-paid-check">
      <button type="button" className="btn btn--primary" data-testid="cg-paid" onClick={() => void store.manualCheck()}>
        {CouponGroupText.PAID_BUTTON}
      </button>{' '}
      <Link to="/service">问题反馈</Link>
    </p>
  );
});

/**
 * The purchase dialog in couponGroup mode (commerce.md §2.5): the shared dialog frame, titled
 * '卡券团购' and '对公转账说明' on the bankResult step; the steps list, qrcode, bankResult, result.
 */
const GroupDialog = observer(function GroupDialog({ store }: { store: CouponGroupStore }) {
  const { user } = useStores();
  if (!store.dialogOpen) return null;
  return (
    <Modal title={store.title} testId="cg-dialog" width={store.step === 'list' ? 560 : 480} className="purchase cg-dialog" onClose={() => store.close()}>
      {store.step === 'list' && (
        <div data-step="list">
          <p className="purchase__account">
            {CouponGroupText.ACCOUNT}：{user.profile?.nickname ?? ''}
          </p>
          <ul className="cg-dialog__lines">
            {store.active.map((l) => (
              <li key={l.id}>
                {l.name} x{l.payCount} · ¥{yuan2(store.unitOf(l))}/张
              </li>
            ))}
          </ul>
          <div className="cg-dialog__pay" role="radiogroup" aria-label="支付方式">
            <span>支付方式</span>
            {GROUP_PAY_METHODS.map((m) => (
              <label key={m.code}>
                <input type="radio" name="cg-pay" checked={store.payMethod === m.code} onChange={() => store.setPayMethod(m.code)} />
                {m.name}
              </label>
            ))}
          </div>
          <p>
            合计应付 <b data-testid="cg-dialog-total">¥{yuan2(store.totalFen)}</b>
          </p>
          <button type="button" className="btn btn--primary" disabled={store.submitting} onClick={() => void store.submit()}>
            立即支付
          </button>
        </div>
      )}
      {store.step === 'qrcode' && store.order && (
        <div className="cg-qr" data-step="qrcode">
          <p>已选商品：{store.order.order.title}</p>
          <p>需支付 ¥{yuan2(store.order.order.payable)}</p>
          {store.qrUrl && <QrImage text={store.qrUrl} size={210} />}
          <PaidCheck store={store} />
        </div>
      )}
      {store.step === 'bankResult' && <BankResult store={store} />}
      {store.step === 'result' && store.order && (
        <div className="cg-result" data-testid="cg-result">
          <h3>支付成功</h3>
          <p>您已成功购买 {store.order.order.title}</p>
          <Link to={`/coupon-group/record/${store.order.order.order_no}`} onClick={() => store.close()}>
            查看兑换码
          </Link>
        </div>
      )}
    </Modal>
  );
});

/** The redeem dialog: a key typed in, redeemed once into a coupon in the backpack. */
export function RedeemDialog({ store, onClose }: { store: CouponGroupStore; onClose: () => void }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Modal title="兑换卡券" testId="cg-redeem" onClose={onClose}>
      <input className="input" placeholder="请输入兑换码" value={key} onChange={(e) => setKey(e.target.value)} data-testid="cg-redeem-key" />
      <p>
        <button
          type="button"
          className="btn btn--primary"
          disabled={busy || key.trim() === ''}
          onClick={() => {
            setBusy(true);
            void store.redeem(key.trim()).then((r) => {
              setBusy(false);
              if (r) onClose();
            });
          }}
        >
          立即兑换
        </button>{' '}
        <button type="button" className="btn" onClick={onClose}>
          取消
        </button>
      </p>
    </Modal>
  );
}

/** /coupon-group: the merchant cart (commerce.md §2.14). */
export const CouponGroupPage = observer(function CouponGroupPage() {
  const store = useGroupStore();
  const { user } = useStores();
  const navigate = useNavigate();
  const [redeeming, setRedeeming] = useState(false);
  useEffect(() => {
    if (user.isLoggedIn) void store.load();
  }, [store, user.isLoggedIn]);
  useEffect(() => {
    if (store.status === 0) navigate('/coupon-group/error', { replace: true });
  }, [store.status, navigate]);
  if (!user.isLoggedIn) {
    return (
      <div className="page container cg-page">
        <p>请先登录后再进行购买</p>
      </div>
    );
  }
  return (
    <div className="page container cg-page" data-testid="cg-page">
      <header className="cg-page__head">
        <h1>{CouponGroupText.TITLE}</h1>
        <nav>
          <Link to="/coupon-group/record">团购记录</Link>{' '}
          <button type="button" className="btn btn--sm" onClick={() => setRedeeming(true)} data-testid="cg-open-redeem">
            兑换卡券
          </button>
        </nav>
      </header>
      <ul className="cg-goods">
        {store.lines.map((l) => (
          <li key={l.id} className={`cg-card cg-card--${l.skin}`} data-testid={`cg-goods-${l.id}`}>
            <h3>{l.name}</h3>
            <ul className="cg-tiers">
              {l.prices.map((t) => (
                <li key={t.min_num}>
                  {t.min_num}-{t.max_num}张 ¥{yuan2(t.price)}/张
                </li>
              ))}
            </ul>
            <label>
              购买数量{' '}
              <input
                className="input cg-count"
                type="number"
                min={0}
                value={l.payCount || ''}
                onChange={(e) => store.setCount(l.id, e.target.value)}
                data-testid={`cg-count-${l.id}`}
              />
            </label>
            <span className="cg-unit">单价 ¥{yuan2(store.unitOf(l))}</span>
          </li>
        ))}
      </ul>
      <footer className="cg-cart">
        <span>
          合计 <b data-testid="cg-total">¥{yuan2(store.totalFen)}</b>
        </span>
        <button type="button" className="btn" onClick={() => store.clear()} data-testid="cg-clear">
          清空
        </button>
        <button type="button" className="btn btn--primary" onClick={() => store.openDialog()} data-testid="cg-buy">
          立即购买
        </button>
      </footer>
      {store.rules.length > 0 && (
        <section className="cg-rules" data-testid="cg-rules">
          <h2>规则说明</h2>
          {store.rules.map((r) => (
            <p key={r}>{r}</p>
          ))}
        </section>
      )}
      <GroupDialog store={store} />
      {redeeming && <RedeemDialog store={store} onClose={() => setRedeeming(false)} />}
    </div>
  );
});

/** /coupon-group/record: the caller's coupon groups. */
export function CouponGroupRecordPage() {
  const { api, ui } = useStores();
  const [rows, setRows] = useState<GroupRecord[] | null>(null);
  useEffect(() => {
    let live = true;
    api.get(CouponGroupPaths.records, { page: 1, page_size: 100 }).then(
      (r) => live && setRows(r.data),
      (e: unknown) => ui.error(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [api, ui]);
  return (
    <div className="page container cg-page" data-testid="cg-records">
      <h1>团购记录</h1>
      {rows?.length === 0 && <p>暂无记录</p>}
      <ul className="cg-records">
        {rows?.map((r) => (
          <li key={r.order_no}>
            <Link to={`/coupon-group/record/${r.order_no}`}>{r.comment}</Link> ¥{yuan2(r.total_paid)} ·{' '}
            {STATE_TEXT[r.state] ?? r.state} · {new Date(r.created_at).toLocaleString('zh-CN')}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /coupon-group/record/{id}: one coupon group with its redeem keys. */
export function CouponGroupRecordDetailPage() {
  const { api, ui } = useStores();
  const { id = '' } = useParams();
  const [d, setD] = useState<GroupRecordDetail | null>(null);
  useEffect(() => {
    let live = true;
    api.get(CouponGroupPaths.record, { order_no: id }).then(
      (r) => live && setD(r),
      (e: unknown) => ui.error(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [api, ui, id]);
  const copy = (text: string) =>
    navigator.clipboard.writeText(text).then(
      () => ui.success(CouponGroupText.COPIED),
      () => ui.error(CouponGroupText.COPY_FAILED),
    );
  if (!d) return <div className="page container cg-page" />;
  return (
    <div className="page container cg-page" data-testid="cg-record">
      <h1>团购详情</h1>
      <p>订单号 {d.record.order_no}</p>
      <p>
        {d.record.comment} · ¥{yuan2(d.record.total_paid)} · <span data-testid="cg-record-state">{STATE_TEXT[d.record.state] ?? d.record.state}</span>
      </p>
      <ul>
        {d.items.map((i) => (
          <li key={i.goods_id}>
            {i.name} x{i.num} · ¥{yuan2(i.unit_price)}/张
          </li>
        ))}
      </ul>
      <h2>兑换码</h2>
      {d.keys.length === 0 && <p>支付完成后发放兑换码</p>}
      <ul className="cg-keys">
        {d.keys.map((k) => (
          <li key={k.key} data-testid="cg-key">
            <code>{k.key}</code> {k.goods_name} · {k.status === 2 ? '已兑换' : '未兑换'}{' '}
            <button type="button" className="btn btn--sm" onClick={() => void copy(k.key)}>
              {CouponGroupText.COPY}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /coupon-group/error: the merchant area is closed, or something failed. */
export function CouponGroupErrorPage() {
  return (
    <div className="page container cg-page" data-testid="cg-error">
      <h1>{CouponGroupText.CLOSED}</h1>
      <Link to="/">返回首页</Link>
    </div>
  );
}

/** The merchant area's routes (commerce.md §2.1), one lazy chunk: /coupon-group, its records,
 * one record and the error page. */
export function CouponGroupRoutes() {
  return (
    <Routes>
      <Route index element={<CouponGroupPage />} />
      <Route path="record" element={<CouponGroupRecordPage />} />
      <Route path="record/:id" element={<CouponGroupRecordDetailPage />} />
      <Route path="error" element={<CouponGroupErrorPage />} />
    </Routes>
  );
}
