import { makeAutoObservable, runInAction } from 'mobx';
import type { Goods, MemberInfoView, MemberPlaytime, PrivilegeTable } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';
import { grantHours, isCarrierMember, memberName } from '../../../lib/member';
import { formatSlashDateTime } from '../../../lib/time';

export interface MemberEffects {
  toast(type: 'success' | 'error' | 'info', message: string): void;
  refreshUser(): Promise<unknown>;
  /** opens the purchase dialog's detail on a goods (the upgrade, commerce.md §2.4) */
  openDetail(goods: Goods): void;
}

/** The member grant dialog (commerce.md §2.9 "Member grant"). */
export interface GrantShown {
  title: string;
  hours: number;
  note: string;
}

/** Memberships of the user centre and the member pages: member info, privileges, the daily grant. */
export class MemberStore {
  info: MemberInfoView | null = null;
  privileges: PrivilegeTable | null = null;
  grant: GrantShown | null = null;
  receiving = false;
  private readonly api: Api;
  private readonly fx: MemberEffects;

  constructor(api: Api, fx: MemberEffects) {
    this.api = api;
    this.fx = fx;
    makeAutoObservable<MemberStore, 'api' | 'fx'>(this, { api: false, fx: false });
  }

  async loadInfo(): Promise<void> {
    try {
      const info = await this.api.get('/api/v3/user/member/info');
      runInAction(() => {
        this.info = info;
      });
    } catch {
      // a guest, or the server busy: the status line keeps what it had
    }
  }

  async loadPrivileges(): Promise<void> {
    if (this.privileges) return;
    try {
      const p = await this.api.get('/api/v3/member/privileges');
      runInAction(() => {
        this.privileges = p;
      });
    } catch {
      // the table stays hidden
    }
  }

  /** Receives today's member play time for `using`, then shows the grant dialog (§4.8). */
  async receive(using: string): Promise<void> {
    if (this.receiving) return;
    this.receiving = true;
    try {
      const got: MemberPlaytime = await this.api.get('/api/member/playtime/receive', { type: using });
      const carrier = isCarrierMember(using);
      runInAction(() => {
        this.grant = {
          title: carrier ? `${memberName(using)}专享` : `${memberName(using)}每日专享`,
          hours: grantHours(got.play_time),
          note: carrier ? `使用有效期至 ${formatSlashDateTime(got.expires_at)}` : '限当天使用，次日0点失效',
        };
      });
      await this.fx.refreshUser();
    } catch (e) {
      this.fx.toast('error', errorMessage(e));
    } finally {
      runInAction(() => {
        this.receiving = false;
      });
    }
  }

  /**
   * The upgrade banner (commerce.md §2.4): fetches the upgrade goods by its code with good_id 0
   * and opens the purchase detail on it; a refusal (nothing to upgrade any more) is a toast.
   */
  async openUpgrade(): Promise<void> {
    const code = this.info?.upgrade?.code;
    if (!code) return;
    try {
      const goods = await this.api.get('/api/v3/shop/goods/item', { goods_code: code, good_id: 0 });
      this.fx.openDetail(goods);
    } catch (e) {
      this.fx.toast('error', errorMessage(e));
      await this.loadInfo();
    }
  }

  closeGrant(): void {
    this.grant = null;
  }
}
