import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { countUp, COUNT_UP_DELAY_MS, COUNT_UP_MS, isDouble } from '../../../lib/mission';
import { AdSlot } from '../../../components/AdSlot';
import { Modal } from '../../../components/Modal';
import { QrImage } from '../../purchase/components/QrImage';
import { formatDateTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import '../playtime.css';

/** The play-time dialogs of commerce.md §2.9, mounted once by the app shell. */
export function PlayTimeDialogs() {
  return (
    <>
      <RegisterGiftDialog />
      <UseUpDialog />
      <TimeUpDialog />
      <CheckinResultDialog />
    </>
  );
}

/** The registration gift after login: its items, laid out 'one', 'two' or 'three'. */
const RegisterGiftDialog = observer(function RegisterGiftDialog() {
  const { playTime } = useStores();
  const gift = playTime.gift;
  if (!gift) return null;
  return (
    <Modal
      title="新人礼包"
      testId="register-gift"
      width={440}
      className="gift-dialog"
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="register-gift-ok" onClick={() => playTime.closeRegisterGift()}>
          开心收下
        </button>
      }
    >
      <p className="gift-dialog__title">恭喜您获得新人专属礼包</p>
      <ul className={`gift-list gift-list--${playTime.giftLayout}`} data-testid="register-gift-list" data-layout={playTime.giftLayout}>
        {gift.map((g, i) => (
          <li key={i} className="gift-item">
            <span className="gift-item__value">{g.face_value_txt}</span>
            <span className="gift-item__name">{g.name}</span>
          </li>
        ))}
      </ul>
    </Modal>
  );
});

/**
 * '时长提醒' use-up prompt (commerce.md §2.9): with a usable time card, the card and '立即使用';
 * without one, the top-up text with '好的'; the game's yoodo rule line when known.
 */
const UseUpDialog = observer(function UseUpDialog() {
  const { playTime, user } = useStores();
  if (!playTime.useUp) return null;
  const card = playTime.useUpCard;
  // the app-download guide: the app's first login gives play time, and there is no card to use
  const appGuide = !card && (user.profile?.first_login_app_playtime ?? 0) > 0;
  const rule = playTime.yoodoRule;
  const [before, after] = rule ? splitYoodo(rule.yoodoText) : ['', ''];
  return (
    <Modal
      title="时长提醒"
      testId="use-up"
      width={380}
      onClose={() => playTime.closeUseUp()}
      footer={
        card ? (
          <button type="button" className="btn btn--primary btn--block" data-testid="use-up-use" onClick={() => void playTime.useCard()}>
            立即使用
          </button>
        ) : (
          <button type="button" className="btn btn--primary btn--block" data-testid="use-up-ok" onClick={() => playTime.topUp()}>
            好的
          </button>
        )
      }
    >
      {card ? (
        <>
          <p className="message-box__text">可用游戏时长不足10分钟，可使用背包中的游戏时长</p>
          <div className="use-up__card" data-testid="use-up-card">
            <div className="use-up__card-title">{card.goods_title}</div>
            <div className="use-up__card-meta">有效期至 {formatDateTime(card.expires_at)}</div>
          </div>
        </>
      ) : (
        <p className="message-box__text">可用游戏时长不足10分钟，请补充时长</p>
      )}
      {rule && (
        <p className="use-up__yoodo" data-testid="use-up-yoodo">
          {before}
          <em className="use-up__yoodo-amount">{rule.yoodo}</em>
          {after}
        </p>
      )}
      {appGuide && (
        <div className="use-up__app" data-testid="use-up-app-guide">
          <QrImage text={`${window.location.origin}${APP_DOWNLOAD_PATH}`} size={APP_GUIDE_QR_PX} label="下载移动端" />
          <span>下载移动端领取专属福利</span>
        </div>
      )}
      <AdSlot slot="gift_playtime_useup" />
    </Modal>
  );
});

/** The app-download guide's QR (commerce.md §9: 72 px) and what it opens (core-platform.md §2.1 /download). */
const APP_GUIDE_QR_PX = 72;
const APP_DOWNLOAD_PATH = '/download';

/** yoodoText around its %s (the highlighted amount goes between). */
function splitYoodo(text: string): [string, string] {
  const i = text.indexOf('%s');
  return i < 0 ? [text, ''] : [text.slice(0, i), text.slice(i + 2)];
}

/** The in-game time-up dialog: countdown, '去充值' and '放弃' with its confirmation. */
const TimeUpDialog = observer(function TimeUpDialog() {
  const { playTime } = useStores();
  const t = playTime.timeUp;
  if (!t) return null;
  return (
    <Modal
      title="时长提醒"
      testId="time-up"
      width={400}
      className="time-up"
      footer={
        t.confirming ? (
          <>
            <button type="button" className="btn btn--ghost" data-testid="time-up-abandon-confirm" onClick={() => void playTime.abandon()}>
              放弃
            </button>
            <button type="button" className="btn btn--primary" data-testid="time-up-keep" onClick={() => playTime.keepRecharging()}>
              继续充值
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn--ghost" data-testid="time-up-abandon" onClick={() => playTime.askAbandon()}>
              放弃
            </button>
            <button type="button" className="btn btn--primary" data-testid="time-up-recharge" onClick={() => playTime.recharge()}>
              去充值
            </button>
          </>
        )
      }
    >
      {t.confirming ? (
        <p className="message-box__text" data-testid="time-up-confirm-text">
          时长不足将退出游戏
        </p>
      ) : (
        <>
          <p className="message-box__text">您的游戏时长已用完，请及时充值</p>
          <p className="time-up__countdown" data-testid="time-up-countdown">
            {playTime.timeUpSeconds}秒后将退出游戏
          </p>
        </>
      )}
    </Modal>
  );
});

/** The check-in result: '签到成功，恭喜您获得 +N分钟' counting up, the double label, the streak. */
const CheckinResultDialog = observer(function CheckinResultDialog() {
  const { playTime } = useStores();
  const r = playTime.checkin;
  if (!r) return null;
  return (
    <Modal title="签到成功" testId="checkin-result" width={380} onClose={() => playTime.closeCheckin()}
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="checkin-result-ok" onClick={() => playTime.closeCheckin()}>
          开心收下
        </button>
      }
    >
      <p className="message-box__text" data-testid="checkin-result-text">
        签到成功，恭喜您获得 <CountUp target={r.reward_play_time} />
        分钟
        {isDouble(r.reward_play_time, r.reward_play_time_origin) && (
          <span className="checkin-double" data-testid="checkin-result-double">
            双倍
          </span>
        )}
      </p>
      <p className="message-box__text" data-testid="checkin-result-count">
        已连续签到{r.count}天
      </p>
    </Modal>
  );
});

/** '+N' counting up from 0 after 250 ms, over 750 ms. */
function CountUp({ target }: { target: number }) {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    const start = performance.now();
    let frame = 0;
    const tick = () => {
      const elapsed = performance.now() - start;
      setShown(countUp(target, elapsed));
      if (elapsed < COUNT_UP_DELAY_MS + COUNT_UP_MS) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [target]);
  return (
    <strong className="checkin-count-up" data-testid="checkin-result-minutes" data-target={target}>
      +{shown}
    </strong>
  );
}
