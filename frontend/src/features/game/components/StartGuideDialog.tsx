import { observer } from 'mobx-react-lite';
import { GameImage } from '../../../components/GameImage';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';

/**
 * The first-play game start guide (core-platform.md §2.14): recommended games, the measured
 * latency, an animation of about 4.5 s, then '下一步' continues the start. Closing ends it.
 */
export const StartGuideDialog = observer(function StartGuideDialog() {
  const steps = useStores().game.steps;
  const g = steps?.startGuide;
  if (!steps || !g) return null;
  const latency = g.measuring ? '测速中...' : g.latency === null ? '超时' : `${g.latency}ms`;
  return (
    <Modal
      title="云游戏，即点即玩"
      onClose={() => steps.answerStartGuide(false)}
      testId="start-guide"
      width={520}
      footer={
        <button
          type="button"
          className="btn btn--primary btn--block"
          data-testid="start-guide-next"
          disabled={!g.ready}
          onClick={() => steps.answerStartGuide(true)}
        >
          {g.ready ? '下一步' : '正在为你准备游戏...'}
        </button>
      }
    >
      <div className="start-guide">
        <div className={`start-guide__progress${g.ready ? ' is-done' : ''}`} aria-hidden="true">
          <span />
        </div>
        <p className="start-guide__latency" data-testid="start-guide-latency">
          当前网络延迟 <em>{latency}</em>
        </p>
        <p className="start-guide__title">为你推荐</p>
        <ul className="start-guide__games">
          {g.games.map((x) => (
            <li key={x.id} data-testid="start-guide-game">
              <GameImage src={x.image_square || x.logo} name={x.name} className="start-guide__logo" />
              <span>{x.name}</span>
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
});
