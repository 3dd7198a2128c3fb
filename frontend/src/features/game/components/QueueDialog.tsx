import { observer } from 'mobx-react-lite';
import { Link, useNavigate } from 'react-router';
import { AdSlot } from '../../../components/AdSlot';
import { GameImage } from '../../../components/GameImage';
import { Modal } from '../../../components/Modal';
import { laneName, ownWaitText, type LaneCard } from '../../../lib/lanes';
import { formatDateTime } from '../../../lib/time';
import { Lane } from '../../../api/codes';
import { useStores } from '../stores/context';

/**
 * The queue dialog (core-platform.md §2.7): queue name, rank, animation, the lane card, the
 * messaging-app notice area, '排队规则', the ad slot, and the header buttons 收起 / 退出排队.
 */
export const QueueDialog = observer(function QueueDialog() {
  const { game, ui, queue } = useStores();
  const live = game.live;
  if (!game.queueDialogVisible || !live) return null;
  const memberFast = live.isFast === Lane.MEMBER;

  return (
    <Modal
      title="游戏排队"
      testId="queue-dialog"
      width={460}
      className={`queue-dialog queue-dialog--lane-${live.isFast ?? 0}`}
      headerActions={
        <>
          <button type="button" className="btn btn--ghost btn--sm" data-testid="queue-minimise" onClick={() => ui.setQueueDialogLarge(false)}>
            收起
          </button>
          <button type="button" className="btn btn--danger btn--sm" data-testid="queue-exit" onClick={() => void queue.requestExit()}>
            退出排队
          </button>
        </>
      }
      footer={queue.dialogAdVisible ? <AdSlot slot="gift_game_dialog" /> : undefined}
    >
      <div className="queue">
        <div className="queue__orbit" aria-hidden="true">
          <span className="queue__ring" />
          <span className="queue__ring queue__ring--2" />
          <span className="queue__ring queue__ring--3" />
        </div>
        {memberFast ? (
          <div className="queue__logo queue__logo--fast" aria-hidden="true" data-testid="queue-fast-mark">
            ⚡
          </div>
        ) : (
          <GameImage src={live.gameLogo} name={live.gameName} className="queue__logo" />
        )}
        <div className="queue__name">{live.gameName}</div>
        <div className={`queue__lane queue__lane--${live.isFast ?? 0}`} data-testid="queue-lane">
          {laneName(queue.rules, live.isFast)}
        </div>
        {live.nodeName && <div className="queue__node">{live.nodeName}</div>}
        <div className="queue__rank" data-testid="queue-rank">
          排队中，当前第 <b>{live.sort ?? '-'}</b> 位
        </div>
        {queue.preview && (
          <div className="queue__wait" data-testid="queue-wait">
            {ownWaitText(queue.preview)}
          </div>
        )}
        <div className="queue__bars" aria-hidden="true">
          <span />
          <span />
          <span />
          <span />
          <span />
        </div>
        <WxNoticeArea />
      </div>
      <LaneCardView card={queue.laneCard} />
      <div className="queue__links">
        <Link to="/help/queue" className="queue__link" data-testid="queue-rules" onClick={() => ui.setQueueDialogLarge(false)}>
          排队规则
        </Link>
      </div>
    </Modal>
  );
});

const WxNoticeArea = observer(function WxNoticeArea() {
  const { queue, game } = useStores();
  const notice = queue.notice;
  return (
    <div className="queue__notice" data-testid="queue-notice">
      {notice.kind === 'qr' && (
        <div className="queue__qr">
          <div className={`qr-box qr-box--lane-${game.live?.isFast ?? 0}`} style={{ width: 80, height: 80 }} data-testid="queue-qr" aria-label="二维码">
            <span>扫码</span>
          </div>
          <span>扫码关注公众号，排队完成后第一时间通知您</span>
        </div>
      )}
      {notice.kind === 'reserve' && (
        <button type="button" className="btn btn--outline btn--sm" data-testid="queue-reserve" onClick={() => queue.toggleReserve()}>
          {queue.wxReserved ? '已预约' : '立即预约'}公众号排队提醒
        </button>
      )}
      {notice.kind === 'text' && <p className="queue__tip">排队完成后将自动为您启动游戏</p>}
      {queue.sortEntryVisible && (
        <span className="queue__sort-entry" data-testid="queue-sort-entry">
          公众号排队通知
        </span>
      )}
    </div>
  );
});

const LaneCardView = observer(function LaneCardView({ card }: { card: LaneCard }) {
  const { queue, ui } = useStores();
  const navigate = useNavigate();
  switch (card.kind) {
    case 'carrier':
      return (
        <div className="lane-card lane-card--carrier" data-testid="lane-card" data-kind="carrier">
          <div className="lane-card__label">天翼电竞宽带用户专享</div>
          <div className="lane-card__title">已享受免费速进通道</div>
        </div>
      );
    case 'fast':
      return (
        <div className="lane-card lane-card--fast" data-testid="lane-card" data-kind="fast">
          <div className="lane-card__title">已享受速进通道</div>
        </div>
      );
    case 'card':
      return (
        <div className="lane-card lane-card--owned" data-testid="lane-card" data-kind="card">
          <div className="lane-card__body">
            <div className="lane-card__title" data-testid="card-title">
              {card.card.goods_title}
            </div>
            <div className="lane-card__meta" data-testid="card-expiry">
              有效期至 {formatDateTime(card.card.expires_at)}
            </div>
            {card.more && (
              <button
                type="button"
                className="lane-card__more"
                data-testid="card-more"
                onClick={() => {
                  ui.setQueueDialogLarge(false);
                  navigate('/user/card');
                }}
              >
                查看更多速进卡
              </button>
            )}
          </div>
          <button
            type="button"
            className="btn btn--primary btn--sm"
            data-testid="card-use"
            disabled={queue.activatingId !== null}
            onClick={() => void queue.activateCard(card.card)}
          >
            立即使用
          </button>
        </div>
      );
    case 'upsell':
      return (
        <div className={`lane-card lane-card--upsell lane-card--lane-${card.lane}`} data-testid="lane-card" data-kind="upsell">
          <div className="lane-card__body">
            <div className="lane-card__label" data-testid="upsell-tier">
              {card.label}
            </div>
            <div className="lane-card__meta" data-testid="upsell-text">
              {card.text}
            </div>
          </div>
          <button type="button" className="btn btn--vip btn--sm" data-testid="upsell-accelerate" onClick={() => queue.accelerate()}>
            立即加速
          </button>
        </div>
      );
    default:
      return null;
  }
});
