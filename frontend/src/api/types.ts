// The REST contract as TypeScript: every type here is generated from the server's OpenAPI
// document (src/gen/api.ts, by scripts/gen-api.mjs from `yoo-server --print-openapi`, which is
// built from the server's Rust types). Nothing is restated by hand: a field renamed on the server
// and not followed here fails the type check.
import type { components, paths } from '../gen/api';

type Schemas = components['schemas'];

export type Profile = Schemas['Profile'];
/** A room's user as the room's answers and events carry them (social.md §3). */
export type RoomUser = Schemas['RoomUserDto'];
export type MemberInfo = Schemas['MemberInfo'];
export type LoginResult = Schemas['LoginResult'];
/** data of 20101 (core-platform.md §2.6): the forbidden alert's template and its values. */
export type Forbidden = Schemas['Forbidden'];
/** The value of an AUTHORIZATION BAN frame (core-platform.md §3.4), as JSON. */
export type BanData = Schemas['BanData'];
/** One item of the registration gift (commerce.md §2.9). */
export type GiftGoods = Schemas['GiftGoods'];
export type CatalogueGame = Schemas['CatalogueGame'];
export type GameInfo = Schemas['GameInfo'];
/** startTip: a game's tip before its start (core-platform.md §2.14, §4.7). */
export type GameTip = Schemas['GameTipDto'];
/** The ad of a game tip: what its tipExt JSON string holds. */
export type TipAd = Schemas['TipAdDto'];
export type GamePage = Schemas['GamePage'];
export type GameNode = Schemas['NodeDto'];
/** A live session (hasGameOnline true) as floatBall, start and the 130122 push carry it. */
export type LiveGameState = Schemas['LiveState'];
/** No live session; after an end it names the session and why it ended. */
export type EndedGameState = Schemas['EndedState'];
export type GameState = Schemas['GameStateDto'];
export type EndReason = Schemas['EndReasonDto'];
/** gameChannelSize: what joining lane `isFast` now would mean for the caller's channel. */
export type ChannelSize = Schemas['ChannelPreview'];
/** A usable fast-entry card of /api/v3/user/card/list. */
export type FastEnterCard = Schemas['Card'];
export type CardList = Schemas['CardList'];
/** A card of the backpack (fast-entry or time card) as /api/v3/user/card/list reads it. */
export type BackpackCard = Schemas['Card'];
/** The unused count of each backpack tab. */
export type CardTotal = Schemas['CardTotal'];
export type CardActivation = Schemas['CardActivation'];
/** The queue lanes and their weights, as the server's queue implements them. */
export type QueueRules = Schemas['QueueRules'];
export type LaneRule = Schemas['LaneRule'];
/** confirmConnect's answer: the session's state, and on a game host's machine its stream. */
export type Confirmed = Schemas['Confirmed'];
/** A fresh ticket for the stream of the caller's session. */
export type StreamTicket = Schemas['StreamTicket'];
/** A session's quality report as stored. */
export type QualityReport = Schemas['QualityReportDto'];
/** One played session of the player's history. */
export type PlayRecord = Schemas['PlayRecordDto'];
export type PlayHistory = Schemas['PlayHistory'];
/** A goods of the shop (commerce.md §3), prices in fen; `price` is what one unit costs the caller. */
export type Goods = Schemas['GoodsDto'];
/** A section's goods (`section/goods`). */
export type SectionGoods = Schemas['SectionGoods'];
/** A pay method a goods may be paid with, as the server filters them (commerce.md §4.2). */
export type PayMethod = Schemas['PayTypeDto'];
/** An order of `payment/goods` and of the QR's long poll, amounts in fen. */
export type PayOrder = Schemas['OrderDto'];
/** An ad item of a slot (commerce.md §2.15), with this user's pay times of a section ad. */
export type AdItem = Schemas['AdItemDto'];
/** A config group's values (strings), e.g. wx_sort_entry. */
export type ConfigGroup = Record<string, string>;
/** The security check's widget parameters (password login, core-platform.md §4.13). */
export type CaptchaRegister = Schemas['CaptchaRegister'];
/** What a password update did: a first password (set mode) or a replaced one. */
export type PasswordUpdated = Schemas['PasswordUpdated'];
/** Which ways into the account are set (phone, password). */
export type BindingState = Schemas['BindingStateView'];
/** The signed agent login that opens the external account centre (core-platform.md §7.2). */
export type UcLogin = Schemas['UcLogin'];

type Method = 'get' | 'post';
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The paths that answer `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

/** `data` of the success envelope of `M P`. */
export type DataOf<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: { 200: infer R } }
  ? JsonOf<R> extends { data: infer D }
    ? D
    : never
  : never;

/** The JSON body of `POST P`. */
export type BodyOf<P extends keyof paths> = paths[P]['post'] extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The query of `GET P`: the documented names, values as the URL carries them. */
export type QueryOf<P extends keyof paths> = paths[P]['get'] extends { parameters: { query?: infer Q } }
  ? [Q] extends [never]
    ? never
    : { [K in keyof NonNullable<Q>]?: string | number | boolean | null }
  : never;

/** A coupon (commerce.md §3) as the purchase's coupon list and the backpack read it. */
export type Coupon = Schemas['CouponDto'];
/** The coupon summary of a purchase: the price with the chosen coupon (commerce.md §4.5, §4.6). */
export type CouponSummary = Schemas['CouponSummary'];
/** The limited-time coupon activity (commerce.md §2.16). */
export type CouponActivity = Schemas['ActivityItem'];
/** The recharge-gift activity (its title shows in the coin pay method's tooltip). */
export type RechargeGive = Schemas['RechargeGiveDto'];
/** A lottery: its prizes (lotteryItemList) and the caller's draws left today. */
export type LotteryInfo = Schemas['LotteryDto'];
/** A draw's result. */
export type DrawResult = Schemas['DrawResult'];
/** A page of lottery draws (rows, pageSize, totalRows). */
export type DrawRecords = Schemas['DrawRecords'];
/** The invite activity: invite_config, filterStatus, the caller's code, link and counts. */
export type InviteData = Schemas['InviteData'];
export type InviteRewardDto = Schemas['InviteRewardDto'];
/** A page of invited friends. */
export type InviteRecords = Schemas['InviteRecords'];
/** /api/v3/user/member/info: the memberships in use and those that lapsed. */
export type MemberInfoView = Schemas['MemberInfoView'];
/** One member expiry popup of the common config's member_expire (commerce.md §3). */
export type MemberExpire = Schemas['MemberExpire'];
/** A user-agent marker of the product's own apps (the server's list, core-platform.md §5.5). */
export type OwnAppMarker = Schemas['OwnAppMarker'];
/** What the system popup chain tells after a login (commerce.md §2.8): received and near-expiry holdings. */
export type CardNotice = Schemas['CardNotice'];
export type NoticeItem = Schemas['NoticeItem'];
/** An auto-renewal agreement of the caller. */
export type AgreementDto = Schemas['AgreementDto'];
/** /api/v3/member/privileges: the privilege comparison (normal / vip / vvip). */
export type PrivilegeTable = Schemas['PrivilegeTable'];
export type PrivilegeRowView = Schemas['PrivilegeRowView'];
/** /api/member/playtime/receive: the member play time received. */
export type MemberPlaytime = Schemas['MemberPlaytime'];
// Check-in and tasks (commerce.md §2.11, §2.12).
/** The check-in dialog's data. */
export type SignInfo = Schemas['SignInfo'];
export type SignItem = Schemas['SignItem'];
/** What a check-in made. */
export type SignResult = Schemas['SignResult'];
/** A task with the user's progress. */
export type MissionTask = Schemas['Task'];
export type TaskRewardConfig = Schemas['RewardConfig'];
/** A daily or night package of the player (night-play/info, night-play/all). */
export type NightPlay = Schemas['NightPlay'];
/** A keyed configuration's HTML content (daily_play, allnight_play). */
export type ConfigContent = Schemas['ConfigContent'];
/** One order of the purchase records (user/order). */
export type OrderRecord = Schemas['OrderRecord'];
/** One of the player's subscriptions (user/subscription). */
export type Subscription = Schemas['SubscriptionDto'];
/** A subscription package's zone: the package and the games it unlocks. */
export type PackageZone = Schemas['PackageZone'];
/** An exclusive (type 4) time card: its game category and minutes left (commerce.md §4.12). */
export type ExclusiveCard = Schemas['ExclusiveCardDto'];
/** One hosted room of the bills' live record. */
export type LiveRecord = Schemas['LiveRecordDto'];

// The merchant area (commerce.md §2.14).
/** A merchant goods with its price tiers (fen). */
export type MerchantGoods = Schemas['MerchantGoodsDto'];
/** A submitted coupon group: the order, its lines, a bank transfer's page. */
export type GroupOrder = Schemas['GroupOrderDto'];
/** The bank pay config parsed from its JSON string (§3 "Bank pay config"). */
export type BankPayConfig = Schemas['BankPayConfig'];
export type GroupRecord = Schemas['GroupRecordDto'];
export type GroupRecordDetail = Schemas['GroupRecordDetail'];
export type Redeemed = Schemas['Redeemed'];
/** A message of the message centre (social.md §3 "Message"). */
export type CentreMessage = Schemas['MessageDto'];
/** A page of messages (social.md §3 "Message page response"). */
export type CentreMessagePage = Schemas['MessagePageDto'];
/** A sender tab of the message centre (social.md §3 "Message sender tab"). */
export type SenderTab = Schemas['SenderTabDto'];
