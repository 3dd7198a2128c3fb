import { action, computed, makeObservable, observable, runInAction } from 'mobx';
import { errorMessage } from '../transport/apiError';

/** One page of a list call: its rows and how many there are in all. */
export interface Page<T> {
  data: T[];
  total: number;
}

/** How a list reads its pages. */
export interface PagedListOptions {
  /** A page after the first that comes back empty is re-read one page earlier (a list whose
   * rows go away as they are used, like the backpack's unused cards). */
  stepBackWhenEmpty?: boolean;
}

/**
 * A list read a page at a time (the bills, the played sessions, the backpack): the rows of the
 * page shown, the total, loading and the error. A slow answer for an older page is dropped.
 */
export class PagedList<T> {
  items: T[] = [];
  total = 0;
  page = 1;
  loading = false;
  error: string | null = null;
  /** bumped at every load: only the newest load's answer is kept */
  private generation = 0;

  constructor(
    private readonly fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
    readonly pageSize: number,
    private readonly options: PagedListOptions = {},
  ) {
    makeObservable<PagedList<T>, 'generation' | 'options'>(this, {
      items: observable,
      total: observable,
      page: observable,
      loading: observable,
      error: observable,
      generation: false,
      options: false,
      pages: computed,
      load: action,
    });
  }

  get pages(): number {
    return Math.max(1, Math.ceil(this.total / this.pageSize));
  }

  async load(page = this.page): Promise<void> {
    const gen = ++this.generation;
    this.loading = true;
    this.error = null;
    try {
      const r = await this.fetchPage(page, this.pageSize);
      if (gen !== this.generation) return;
      if (this.options.stepBackWhenEmpty && r.data.length === 0 && page > 1) {
        await this.load(page - 1);
        return;
      }
      runInAction(() => {
        if (gen !== this.generation) return;
        this.items = r.data;
        this.total = r.total;
        this.page = page;
      });
    } catch (e) {
      runInAction(() => {
        if (gen === this.generation) this.error = errorMessage(e);
      });
    } finally {
      runInAction(() => {
        if (gen === this.generation) this.loading = false;
      });
    }
  }
}
