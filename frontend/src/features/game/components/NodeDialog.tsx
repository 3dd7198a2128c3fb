import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { nodeStatusText, type ProbeResult } from '../../../lib/gameStatus';

function latencyClass(p: ProbeResult | undefined): string {
  if (!p || p.state !== 'ok') return '';
  if (p.ping < 60) return ' is-good';
  if (p.ping < 150) return ' is-fair';
  return ' is-poor';
}

/** '选择游戏服务器' (core-platform.md §2.14, §4.8). */
export const NodeDialog = observer(function NodeDialog() {
  const { game } = useStores();
  const picker = game.nodePicker;
  if (!picker) return null;
  const nodes = game.nodesOf(picker.gameId);
  return (
    <Modal
      title="选择游戏服务器"
      onClose={() => game.closeNodePicker()}
      testId="node-dialog"
      width={460}
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={() => game.closeNodePicker()}>
            取消
          </button>
          <button type="button" className="btn btn--primary" data-testid="node-confirm" onClick={() => void game.confirmNode()}>
            确定
          </button>
        </>
      }
    >
      <p className="node-dialog__game">{picker.gameName}</p>
      {nodes.length === 0 ? (
        <div className="empty empty--small">暂无可用区服</div>
      ) : (
        <ul className="node-list">
          {nodes.map((n) => {
            const selectable = n.status === 1;
            const selected = picker.selectedId === n.id;
            return (
              <li key={n.id}>
                <button
                  type="button"
                  className={`node${selected ? ' is-selected' : ''}${selectable ? '' : ' is-disabled'}`}
                  data-testid={`node-${n.id}`}
                  aria-pressed={selected}
                  disabled={!selectable}
                  onClick={() => game.selectNode(n)}
                >
                  <span className="node__radio" aria-hidden="true" />
                  <span className="node__name">{n.name}</span>
                  <span className={`node__status${latencyClass(game.probes.get(n.id))}`} data-testid={`node-status-${n.id}`}>
                    {nodeStatusText(n, game.probes.get(n.id), game.nodeDelayFactor)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
});
