// The queue-quit retention (core-platform.md §2.8, commerce.md §4.9): '退出排队' on this client
// first asks the player to stay, advertising the first product of queue_detainment_goods and the
// rank it would give. The queue store owns one (its `retention*` members delegate here).
import { makeAutoObservable, observable, runInAction } from 'mobx';
import { Lane } from '../../../api/codes';
import type { Goods } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import { isMemberProduct, isVvipProduct, ProductType } from '../../../lib/products';

const RetentionPaths = {
  channelSize: '/api/japi/yoo/game/gameChannelSize',
  sectionGoods: '/api/web/v1/section/goods',
} as const;

/** The sku section whose first item the retention dialog advertises (core-platform.md §2.8). */
export const RETENTION_SECTION = 'queue_detainment_goods';

/** The lane the retention dialog advertises before its product is known (a VVIP product's). */
export const RETENTION_LANE = Lane.VVIP;

/** The lane a retention product leads to (commerce.md §4.9): 3 VVIP, 4 VIP, 1 otherwise. */
export function retentionLane(productType: number | undefined): number {
  if (productType === undefined) return RETENTION_LANE;
  if (isVvipProduct(productType)) return Lane.VVIP;
  if (productType === ProductType.VIP || productType === ProductType.VIP_NEW) return Lane.VIP;
  return Lane.MEMBER;
}

/** The queue-quit retention dialog (core-platform.md §2.8) while it is open. */
export interface Retention {
  id: number;
  /** expected position on the advertised lane, null until gameChannelSize answers */
  preSort: number | null;
  /** the advertised product: the first of queue_detainment_goods; null until read (or none) */
  goods: Goods | null;
}

export class RetentionStore {
  retention: Retention | null = null;
  /** settles the open retention dialog: true = stay in the queue */
  private resolve: ((stay: boolean) => void) | null = null;
  private seq = 0;
  private readonly deps: Pick<AppServices, 'api' | 'openPurchase'>;

  constructor(deps: Pick<AppServices, 'api' | 'openPurchase'>) {
    this.deps = deps;
    makeAutoObservable<RetentionStore, 'deps' | 'resolve' | 'seq'>(this, { deps: false, resolve: false, seq: false, retention: observable.ref });
  }

  /** Opens the retention dialog; resolves true to stay in the queue. */
  ask(): Promise<boolean> {
    this.settle(true);
    const id = ++this.seq;
    this.retention = { id, preSort: null, goods: null };
    const answer = new Promise<boolean>((resolve) => {
      this.resolve = resolve;
    });
    void this.load(id);
    return answer;
  }

  /** The advertised product, then the expected rank on the lane it leads to. */
  private async load(id: number): Promise<void> {
    let goods: Goods | null = null;
    try {
      const section = await this.deps.api.get(RetentionPaths.sectionGoods, { section_key: RETENTION_SECTION, page_size: 1 });
      goods = section.goods[0] ?? null;
    } catch {
      goods = null;
    }
    if (this.retention?.id !== id) return;
    runInAction(() => {
      if (this.retention?.id === id) this.retention = { ...this.retention, goods };
    });
    try {
      const size = await this.deps.api.post(RetentionPaths.channelSize, { isFast: retentionLane(goods?.type) });
      runInAction(() => {
        if (this.retention?.id === id) this.retention = { ...this.retention, preSort: Number(size?.preSort) || 0 };
      });
    } catch {
      // the rank stays '正在计算'
    }
  }

  /** The retention's text (commerce.md §4.9): a membership's lane, or the fast-entry lane. */
  get text(): string {
    const t = this.retention?.goods?.type;
    return t === undefined || isMemberProduct(t) ? '可享VVIP/VIP专属加速通道' : '速进通道';
  }

  /** '立即加速' of the retention: the player stays queued and buys the advertised product. */
  buy(): void {
    const goods = this.retention?.goods;
    if (!goods) return;
    this.settle(true);
    this.deps.openPurchase('queue_accelerate', { goods });
  }

  /** '再等等' (true) or '仍要退出' (false). */
  settle(stay: boolean): void {
    const resolve = this.resolve;
    this.resolve = null;
    this.retention = null;
    resolve?.(stay);
  }
}
