import { observable, reaction, runInAction } from 'mobx';
import { noEffects, type BrowserEffects } from '../lib/notify';
import { ApiError, ErrorCode, errorMessage } from '../transport/apiError';
import type { Api, EnvelopeInfo, PushChannel, ServerPush, Transport } from '../transport/types';
import { CatalogueStore } from '../features/catalogue/stores/catalogueStore';
import { GameStore } from '../features/game/stores/gameStore';
import { NotificationCode, notificationData } from '../api/codes';
import { NoticeStore } from '../features/game/stores/noticeStore';
import { PlayTimeStore } from '../features/playtime/stores/playTimeStore';
import { QueueStore } from '../features/game/stores/queueStore';
import type { RoomStore } from '../features/live/stores/roomStore';
import type { PurchasePayload, PurchaseStore } from '../features/purchase/stores/purchaseStore';
import type { PurchaseType } from '../lib/purchase';
import { UiStore } from '../kernel/uiStore';
import { UserStore } from '../features/auth/stores/userStore';

/** core-platform.md §4.10: the socket opens 500 ms after login */
export const SOCKET_OPEN_DELAY_MS = 500;

const AuthMessages: Record<string, string> = {
  KICK_OUT: '您的账号已在其他设备登录，如非本人操作，请尽快修改密码',
  FROZEN: '账号已被冻结，已退出登录',
  BAN: '您的账号已被封禁',
};

/**
 * Creates every store and owns what spans them: the real-time channel (open while logged in),
 * the dispatch of server pushes, the 20119 rule, and logout with a running game.
 */
export class RootStore {
  readonly transport: Transport;
  readonly api: Api;
  /** fullscreen and notifications: the browser's in main.tsx, none (or a recorder) in tests */
  readonly effects: BrowserEffects;
  readonly ui: UiStore;
  readonly user: UserStore;
  readonly catalogue: CatalogueStore;
  readonly game: GameStore;
  readonly queue: QueueStore;
  readonly playTime: PlayTimeStore;
  readonly notice: NoticeStore;
  /**
   * The room store, loaded with its code on first need (a room page, a restored membership):
   * the rooms' code stays out of the home page's scripts. Null until then.
   */
  private readonly roomBox = observable.box<RoomStore | null>(null, { deep: false });
  private roomLoading: Promise<RoomStore> | null = null;
  /**
   * The purchase dialog's store, loaded with its code on the first purchase opened: the shop's
   * code stays out of the home page's scripts. Null until then.
   */
  private readonly purchaseBox = observable.box<PurchaseStore | null>(null, { deep: false });
  private purchaseLoading: Promise<PurchaseStore> | null = null;
  /** the WebSocket; created at login, closed and dropped at logout */
  private channel: PushChannel | null = null;
  private openTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly unsubscribe: () => void;
  private readonly stopProfileOnEnd: () => void;
  private readonly stopSharedReports: () => void;
  private readonly stopPendingReports: () => void;

  constructor(transport: Transport, effects: BrowserEffects = noEffects) {
    this.transport = transport;
    this.api = transport.api;
    this.effects = effects;
    this.ui = new UiStore();
    this.user = new UserStore(this);
    this.catalogue = new CatalogueStore(this);
    this.playTime = new PlayTimeStore(this);
    this.game = new GameStore(this);
    // these react to the game state from their construction on
    this.queue = new QueueStore(this);
    this.notice = new NoticeStore(this);
    this.unsubscribe = this.api.subscribe((info) => this.onEnvelope(info));
    // a session of this client ended: its play time was charged, re-read the profile
    this.stopProfileOnEnd = reaction(
      () => this.game.lastEnded,
      (ended) => {
        if (ended && this.user.isLoggedIn) void this.user.loadProfile();
      },
    );
    // a play window this window opened closed itself after the game: its report shows here
    this.stopSharedReports = effects.onQualityReport((report) => {
      if (this.user.isLoggedIn) this.game.presentQualityReport(report, false);
    });
    // a play page closed while its game ran on kept its figures; the game's end, seen here with
    // no play page of that game open (which would send them itself), sends the report
    // (the figures' code is loaded when a game ends: the home page's scripts stay small)
    this.stopPendingReports = reaction(
      () => this.game.lastEnded,
      (ended) => {
        if (!ended || !this.user.isLoggedIn || this.notice.playPageGameId === ended.gameId) return;
        void import('../stream/pendingReport').then(({ PendingReports }) => {
          const summary = new PendingReports(siteStorage()).take(ended.id);
          if (!summary) return;
          void this.api.post('/api/japi/yoo/game/qualityReport', { ...summary, id: ended.id }).catch(() => undefined);
          this.game.presentQualityReport({ sessionId: ended.id, gameName: ended.gameName, endReason: ended.endReason, summary }, false);
        });
      },
    );
  }

  /** The room store once loaded (observable); null before. */
  get room(): RoomStore | null {
    return this.roomBox.get();
  }

  /** Loads the room store's code and creates it, once. */
  loadRoom(): Promise<RoomStore> {
    if (!this.roomLoading) {
      this.roomLoading = import('../features/live/stores/roomStore').then(({ RoomStore }) => {
        const room = new RoomStore(this);
        // the room's watch frames go on whichever socket is open (none while logged out)
        room.setWatcher({
          watch: (ddRid, epoch, afterOffset) => this.channel?.watchRoom(ddRid, epoch, afterOffset),
          unwatch: (ddRid) => this.channel?.unwatchRoom(ddRid),
        });
        runInAction(() => this.roomBox.set(room));
        return room;
      });
      this.roomLoading.catch(() => {
        this.roomLoading = null;
      });
    }
    return this.roomLoading;
  }

  /** The purchase store once loaded (observable); null before. */
  get purchase(): PurchaseStore | null {
    return this.purchaseBox.get();
  }

  /** Loads the purchase store's code and creates it, once. */
  loadPurchase(): Promise<PurchaseStore> {
    if (!this.purchaseLoading) {
      this.purchaseLoading = import('../features/purchase/stores/purchaseStore').then(({ PurchaseStore }) => {
        const purchase = new PurchaseStore(this);
        runInAction(() => this.purchaseBox.set(purchase));
        return purchase;
      });
      this.purchaseLoading.catch(() => {
        this.purchaseLoading = null;
      });
    }
    return this.purchaseLoading;
  }

  /**
   * Opens the purchase dialog of `type` (commerce.md §4.1). Buying needs a login (§5): a guest
   * gets the login dialog, and the purchase opens once logged in.
   */
  openPurchase(type: PurchaseType, payload?: PurchasePayload): void {
    if (!this.user.isLoggedIn) {
      this.ui.openLogin(() => this.openPurchase(type, payload));
      return;
    }
    void this.loadPurchase().then(
      (p) => p.open(type, payload),
      () => this.ui.error(errorMessage(null)),
    );
  }

  /**
   * A purchase was paid (commerce.md §4.1 callbacks): the profile is re-read by the dialog; time
   * bought for a game that ran out closes its time-up dialog (§2.9); a queued player's lane card
   * follows a bought acceleration, fast-entry time or membership.
   */
  onPurchased(type: PurchaseType): void {
    if (type === 'yoodo_time_useup') this.playTime.onPaid();
    if (this.queue.queuedId !== null && (type === 'queue' || type === 'queue_accelerate' || type === 'member_special' || type === 'member')) {
      void this.game.refresh();
      void this.queue.loadCards();
    }
  }

  /** After login: the room this user is a member of (room/userInfo), entered again quietly. */
  private async restoreRoom(): Promise<void> {
    try {
      const me = await this.api.post('/api/japi/yoo/v2/room/userInfo', {});
      if (me?.ddRid) await (await this.loadRoom()).restore(me.ddRid);
    } catch {
      // not in a room
    }
  }

  /** Start-up: who is this (20119 means guest), then the game status and the socket. */
  init(): Promise<void> {
    return this.user.init();
  }

  private onEnvelope(info: EnvelopeInfo): void {
    if (typeof info.ts === 'number') this.game.noteServerTime(info.ts);
    if ((info.code === ErrorCode.NOT_LOGGED_IN || info.code === ErrorCode.SESSION_INVALID) && this.user.isLoggedIn) {
      this.user.clearLocal();
    }
    // a login ended by a freeze or ban that still holds (core-platform.md §4.10): a page that had
    // no socket when it happened hears it from its next call, with the frame's alert
    if (info.code === ErrorCode.ACCOUNT_FORBIDDEN && this.user.isLoggedIn) {
      this.user.clearLocal();
      void this.user.showForbidden(new ApiError(info.code, info.message ?? '', info.data ?? null));
    }
  }

  /** Called once the user is known to be logged in (start-up or login). */
  onLoggedIn(): void {
    void this.game.refresh();
    void this.restoreRoom();
    if (this.openTimer) clearTimeout(this.openTimer);
    this.openTimer = setTimeout(() => {
      this.openTimer = null;
      if (!this.user.isLoggedIn) return;
      if (!this.channel) {
        this.channel = this.transport.createPushChannel({
          onPush: (p) => this.handlePush(p),
          onResync: () => void this.game.refresh(),
          onOpen: () => this.room?.onChannelOpen(),
        });
      }
      this.channel.open();
    }, SOCKET_OPEN_DELAY_MS);
  }

  /** Called when the user was cleared locally. */
  onLoggedOut(): void {
    if (this.openTimer) clearTimeout(this.openTimer);
    this.openTimer = null;
    this.channel?.close();
    this.channel = null;
    this.game.reset();
    this.queue.reset();
    this.playTime.reset();
    this.notice.reset();
    this.room?.reset();
    this.purchase?.close();
    this.ui.resetSession();
  }

  handlePush(push: ServerPush): void {
    switch (push.kind) {
      case 'notification':
        this.handleNotification(push.code, push.data, push.content);
        return;
      case 'authorization':
        this.handleAuthorization(push.status, push.value);
        return;
      case 'memberInfo':
        // member info and the queue data (core-platform.md §4.11)
        if (this.user.isLoggedIn) void this.user.loadProfile();
        if (this.queue.queuedId !== null) void this.queue.loadCards();
        return;
      case 'roomEvents':
        this.room?.applyEvents(push.ddRid, push.epoch, push);
        return;
      case 'roomReset':
        this.room?.applyReset(push.ddRid, push.epoch, push.offset);
        return;
      case 'newMessage':
        this.ui.messageArrived();
        return;
      case 'userInfo':
      case 'growthInfo':
      case 'balance':
        if (this.user.isLoggedIn) void this.user.loadProfile();
        return;
    }
  }

  private handleNotification(code: number, data: string, content = ''): void {
    // the game was hanging (core-platform.md §4.11): said, and the hanging state read again
    if (code === NotificationCode.GAME_HANG_END) {
      if (content) this.ui.info(content);
      void this.game.refreshDuration();
      return;
    }
    if (code === NotificationCode.USER_GAME_STATUS_CHANGE) {
      const state = notificationData(NotificationCode.USER_GAME_STATUS_CHANGE, data);
      if (state && typeof state.hasGameOnline === 'boolean') {
        this.game.applyServerEvent(state);
      } else {
        void this.game.refresh();
      }
      return;
    }
    // the host's relay ended: the room is over (§4.8 session notices)
    if (code === NotificationCode.USER_RELAY_END) {
      this.room?.roomEnded();
      return;
    }
    if (code === NotificationCode.LIVE_OFFLINE && this.room?.inRoom) {
      this.room.control.liveOffline();
      return;
    }
    if (code === NotificationCode.LIVE_CONTROL_OFFLINE_SOON && this.room?.inRoom) {
      this.room.talk.noticeBarrage('一起玩的操控即将结束，请及时保存游戏进度');
    }
    this.notice.handle(code, data);
  }

  private handleAuthorization(status: string, value: string): void {
    const s = status.toUpperCase();
    // already logged out here by a call answered 20101, whose alert said it
    if ((s === 'BAN' || s === 'FROZEN') && !this.user.isLoggedIn) return;
    if (s === 'EXPIRED' || s === 'INVALID') {
      this.user.clearLocal();
      return;
    }
    if (s === 'BAN' && value) {
      // the forbidden alert from the ban data; a ban whose data has its own status set leaves
      // the login (core-platform.md §4.10)
      void import('../lib/forbidden').then(({ forbiddenAlert, parseBan }) => {
        const ban = parseBan(value);
        if (!ban) return this.authorizationAlert(AuthMessages.BAN);
        if (!ban.status) this.user.clearLocal();
        void this.ui.alert(forbiddenAlert(ban));
      });
      return;
    }
    const message = AuthMessages[s];
    if (message) this.authorizationAlert(message);
  }

  private authorizationAlert(message: string): void {
    this.user.clearLocal();
    void this.ui.alert({ title: '温馨提示', message, confirmText: '好的' });
  }

  /**
   * Logout (core-platform.md §2.6): the confirm names a running game; confirming ends the game
   * (over, cancelQue or cancelConfirm by its status), logs out on the server, and goes to '/'.
   */
  async logout(): Promise<void> {
    const running = this.game.hasGameOnline && this.game.isThisClient;
    const ok = await this.ui.confirm({
      title: '提示',
      message: running ? '当前有游戏正在运行，确定要退出登录吗？' : '确定要退出登录吗？',
    });
    if (!ok) return;
    if (running) await this.game.exitCurrent();
    try {
      await this.user.logoutRemote();
    } catch (e) {
      if (this.user.isLoggedIn) {
        this.ui.error(errorMessage(e));
        return;
      }
    }
    this.user.clearLocal();
    this.ui.navigate('/');
  }

  dispose(): void {
    this.unsubscribe();
    this.stopProfileOnEnd();
    this.stopSharedReports();
    this.stopPendingReports();
    if (this.openTimer) clearTimeout(this.openTimer);
    this.channel?.close();
    this.notice.dispose();
    this.room?.dispose();
    this.purchase?.dispose();
    this.queue.dispose();
    this.game.dispose();
    this.playTime.dispose();
    this.user.dispose();
    this.ui.dispose();
  }
}

function siteStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
