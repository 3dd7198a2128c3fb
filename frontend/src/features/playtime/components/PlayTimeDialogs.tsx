import { observer } from 'mobx-react-lite';
import { AdSlot } from '../../../components/AdSlot';
import { Modal } from '../../../components/Modal';
import { useStores } from '../../../stores/context';

/** The play-time dialogs of commerce.md §2.9, mounted once by the app shell. */
export function PlayTimeDialogs() {
  return (
    <>
      <RegisterGiftDialog />
      <UseUpDialog />
      <TimeUpDialog />
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

/** '时长提醒' use-up prompt (no usable time card: the top-up text with '好的'). */
const UseUpDialog = observer(function UseUpDialog() {
  const { playTime } = useStores();
  if (!playTime.useUp) return null;
  return (
    <Modal
      title="时长提醒"
      testId="use-up"
      width={380}
      onClose={() => playTime.closeUseUp()}
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="use-up-ok" onClick={() => playTime.topUp()}>
          好的
        </button>
      }
    >
      <p className="message-box__text">可用游戏时长不足10分钟，请补充时长</p>
      <AdSlot slot="gift_playtime_useup" />
    </Modal>
  );
});

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
