import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Modal } from '../../../components/Modal';
import type { LiveStore } from '../stores/liveStore';

/** The start-relay dialog (social.md §2.12, §5): name, mode, game, password, public display. */
export const RelayDialog = observer(function RelayDialog({ live }: { live: LiveStore }) {
  const d = live.dialog;
  if (!d) return null;
  const f = d.form;
  return (
    <Modal
      title="创建房间"
      testId="relay-dialog"
      onClose={() => live.closeRelay()}
      width={460}
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={() => live.closeRelay()}>
            取消
          </button>
          <button type="button" className="btn btn--primary" data-testid="relay-submit" disabled={d.submitting} onClick={() => void live.submitRelay()}>
            开启直播
          </button>
        </>
      }
    >
      {d.notice && (
        <p className="room-form__notice" data-testid="relay-notice">
          {d.notice}
        </p>
      )}
      <form
        className="room-form"
        onSubmit={(e) => {
          e.preventDefault();
          void live.submitRelay();
        }}
      >
        <label className="room-form__field">
          <span>房间名称</span>
          <input className="input" data-testid="relay-name" maxLength={15} value={f.roomName} onChange={(e) => live.setForm({ roomName: e.target.value })} />
        </label>
        <div className="room-form__field">
          <span>房间模式</span>
          <div className="room-form__modes">
            {(d.params.roomModes ?? []).map((m) => (
              <label key={m.mode} className={`room-form__mode${f.mode === m.mode ? ' is-active' : ''}`}>
                <input type="radio" name="mode" checked={f.mode === m.mode} onChange={() => live.setForm({ mode: m.mode })} />
                <strong>{m.name}</strong>
                <small>{m.desc}</small>
              </label>
            ))}
          </div>
        </div>
        {d.gamePreset ? (
          <div className="room-form__field">
            <span>游戏</span>
            <strong>{d.gamePreset.name}</strong>
          </div>
        ) : (
          <label className="room-form__field">
            <span>游戏</span>
            <input className="input" placeholder="搜索游戏" value={d.keyword} onChange={(e) => void live.searchGames(e.target.value)} />
            {d.games.length === 0 ? (
              <small className="room-form__empty">未找到相关游戏</small>
            ) : (
              <select className="input" data-testid="relay-game" value={f.gameId ?? ''} onChange={(e) => live.setForm({ gameId: Number(e.target.value) })}>
                {d.games.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            )}
          </label>
        )}
        <label className="room-form__field">
          <span>房间密码（选填）</span>
          <input
            className="input"
            data-testid="relay-password"
            inputMode="numeric"
            maxLength={4}
            placeholder="4位数字"
            value={f.password}
            onChange={(e) => live.setForm({ password: e.target.value.replace(/\D/g, '') })}
          />
        </label>
        <label className="room-form__check">
          <input type="checkbox" data-testid="relay-show" checked={f.isShow} onChange={(e) => live.setForm({ isShow: e.target.checked })} />
          公开展示房间
        </label>
        {d.error && (
          <p className="form-error" data-testid="relay-error">
            {d.error}
          </p>
        )}
        <p className="room-form__agree">
          开启即表示同意<Link to="/agreement/live">《直播协议》</Link>
        </p>
      </form>
    </Modal>
  );
});
