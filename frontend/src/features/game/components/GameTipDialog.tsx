import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { tipAd, yoodoParts } from '../../../lib/gameTip';
import { useStores } from '../stores/context';

/**
 * '温馨提示' before a start (core-platform.md §2.14, §4.7): the game's tip, its yoodo line with
 * the amount highlighted, its ad's target_title, the checkbox '当前游戏版本不再提醒' and
 * '开始游戏'. Closing it ends the start.
 */
export const GameTipDialog = observer(function GameTipDialog() {
  const steps = useStores().game.steps;
  const shown = steps?.gameTip;
  if (!steps || !shown) return null;
  const yoodo = yoodoParts(shown.tip);
  const ad = tipAd(shown.tip);
  return (
    <Modal
      title="温馨提示"
      onClose={() => steps.answerTip(false)}
      testId="game-tip"
      width={440}
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="game-tip-start" onClick={() => steps.answerTip(true)}>
          开始游戏
        </button>
      }
    >
      <p className="game-tip__text" data-testid="game-tip-text">
        {shown.tip.tip}
      </p>
      {yoodo && (
        <p className="game-tip__yoodo" data-testid="game-tip-yoodo">
          {yoodo.before}
          <em className="game-tip__amount">{yoodo.amount}</em>
          {yoodo.after}
        </p>
      )}
      {ad && ad.target_title && (
        <p className="game-tip__ad" data-testid="game-tip-ad">
          {ad.target_title}
        </p>
      )}
      <label className="game-tip__remind">
        <input
          type="checkbox"
          data-testid="game-tip-dont-remind"
          checked={shown.dontRemind}
          onChange={(e) => void steps.setTipDontRemind(e.target.checked)}
        />
        <span>当前游戏版本不再提醒</span>
      </label>
    </Modal>
  );
});
