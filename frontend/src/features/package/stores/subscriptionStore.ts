import { makeAutoObservable, runInAction } from 'mobx';
import type { PackageZone, Subscription } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';

/** The player's subscriptions (/user/subscription) and a package's zone (/subscription/{id}). */
export class SubscriptionStore {
  subscriptions: Subscription[] | null = null;
  zone: PackageZone | null = null;
  error: string | null = null;
  private readonly api: Api;

  constructor(api: Api) {
    this.api = api;
    makeAutoObservable<SubscriptionStore, 'api'>(this, { api: false });
  }

  async loadMine(): Promise<void> {
    try {
      const subs = await this.api.get('/api/v3/user/subscription');
      runInAction(() => {
        this.subscriptions = subs;
      });
    } catch (e) {
      runInAction(() => {
        this.subscriptions = [];
        this.error = errorMessage(e);
      });
    }
  }

  async loadZone(packageId: number): Promise<void> {
    if (!Number.isInteger(packageId) || packageId <= 0) {
      this.error = '订阅包不存在';
      return;
    }
    try {
      const zone = await this.api.get('/api/shop/goods/game-package/zone', { package_id: packageId });
      runInAction(() => {
        this.zone = zone;
      });
    } catch (e) {
      runInAction(() => {
        this.error = errorMessage(e);
      });
    }
  }
}
