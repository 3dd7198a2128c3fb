import { makeAutoObservable, runInAction } from 'mobx';
import type { AgreementDto } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';

export type { AgreementDto };

/** Agreement states (the server's `state`). */
export const AgreementState = { PENDING: 0, ACTIVE: 1, CANCELLED: 2 } as const;

export const AGREEMENT_STATE_TEXT: Record<number, string> = {
  [AgreementState.PENDING]: '待签约',
  [AgreementState.ACTIVE]: '自动续费中',
  [AgreementState.CANCELLED]: '已取消',
};

export interface AgreementEffects {
  confirm(message: string): Promise<boolean>;
  toast(type: 'success' | 'error', message: string): void;
}

/**
 * The player's auto-renewals (commerce.md §2.5 renewal info: '可随时取消'): the list, and
 * cancelling one after a confirm.
 */
export class AgreementStore {
  list: AgreementDto[] = [];
  loaded = false;
  cancelling: string | null = null;
  private readonly api: Api;
  private readonly fx: AgreementEffects;

  constructor(api: Api, fx: AgreementEffects) {
    this.api = api;
    this.fx = fx;
    makeAutoObservable<AgreementStore, 'api' | 'fx'>(this, { api: false, fx: false });
  }

  /** The ones worth showing: renewing, or waiting for their first payment. */
  get shown(): AgreementDto[] {
    return this.list.filter((a) => a.state === AgreementState.ACTIVE);
  }

  async load(): Promise<void> {
    try {
      const list = await this.api.get('/api/v3/user/agreement/list');
      runInAction(() => {
        this.list = list;
        this.loaded = true;
      });
    } catch {
      // a guest, or the server busy: the section stays as it was
    }
  }

  /** Cancels after '确定取消自动续费吗？'; the list is read again. */
  async cancel(a: AgreementDto): Promise<boolean> {
    if (this.cancelling) return false;
    if (!(await this.fx.confirm(`确定取消「${a.title}」的自动续费吗？取消后到期将不再自动扣费，已购买的会员不受影响`))) return false;
    this.cancelling = a.agreement_no;
    try {
      await this.api.post('/api/v3/user/agreement/cancel', { agreement_no: a.agreement_no });
      this.fx.toast('success', '已取消自动续费');
      await this.load();
      return true;
    } catch (e) {
      this.fx.toast('error', errorMessage(e));
      return false;
    } finally {
      runInAction(() => {
        this.cancelling = null;
      });
    }
  }
}
