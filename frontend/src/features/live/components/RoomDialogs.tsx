import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { Modal } from '../../../components/Modal';
import { REPORT_REASONS, RoomText, validateRoomForm, type RoomForm } from '../../../lib/room';
import { useLoadedRoom } from '../stores/useRoom';

/** 验证房间密码 (social.md §2.13, §5): one 4-digit field. */
export const PasswordPrompt = observer(function PasswordPrompt() {
  const room = useLoadedRoom();
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const prompt = room.passwordPrompt;
  if (!prompt) return null;
  const submit = async () => {
    setBusy(true);
    const bad = await room.submitPassword(value);
    setBusy(false);
    setError(bad);
    if (!bad) setValue('');
  };
  const shown = error ?? prompt.message;
  return (
    <Modal
      title={RoomText.PASSWORD_TITLE}
      testId="room-password"
      width={360}
      onClose={() => {
        room.cancelPassword();
        navigate('/game/live');
      }}
      footer={
        <button type="button" className="btn btn--primary btn--block" data-testid="room-password-submit" disabled={busy} onClick={() => void submit()}>
          确定
        </button>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <input
          className={`input${shown ? ' has-error' : ''}`}
          data-testid="room-password-input"
          inputMode="numeric"
          autoFocus
          maxLength={4}
          placeholder="请输入4位数字密码"
          value={value}
          onChange={(e) => {
            setValue(e.target.value.replace(/\D/g, ''));
            setError(null);
          }}
        />
        {shown && (
          <p className="field__error" data-testid="room-password-error">
            {shown}
          </p>
        )}
      </form>
    </Modal>
  );
});

/** The host's blacklist: paged, with remove (add is on the online list). */
export const BlacklistDialog = observer(function BlacklistDialog({ onClose }: { onClose: () => void }) {
  const room = useLoadedRoom();
  const list = room.members.blacklist;
  const rows = list?.rows ?? [];
  const more = list ? rows.length < list.totalRows : false;
  return (
    <Modal title="黑名单" testId="blacklist-dialog" onClose={onClose}>
      {rows.length === 0 ? (
        <p className="room-dialog__empty">暂无拉黑用户</p>
      ) : (
        <ul className="room-dialog__list">
          {rows.map((r) => (
            <li key={r.blackUserId} data-testid="black-item">
              <Avatar src={r.userProfile.avatar} name={r.userProfile.nickname} size={28} />
              <span>{r.userProfile.nickname}</span>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.members.blacklistDel(r.blackUserId)}>
                移除
              </button>
            </li>
          ))}
        </ul>
      )}
      {more && (
        <button type="button" className="btn btn--ghost btn--block" onClick={() => void room.members.loadBlacklist(Math.floor(rows.length / 10) + 1)}>
          加载更多
        </button>
      )}
    </Modal>
  );
});

/** 举报 with a reason (§9: 0–6) and an optional text. */
export function ReportDialog({ userId, name, onClose }: { userId: number; name: string; onClose: () => void }) {
  const room = useLoadedRoom();
  const [reason, setReason] = useState<number | null>(null);
  const [text, setText] = useState('');
  const submit = async () => {
    if (reason === null) return;
    if (await room.members.report(userId, reason, text.trim())) onClose();
  };
  return (
    <Modal
      title={`举报 ${name}`}
      testId="report-dialog"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--primary" data-testid="report-submit" disabled={reason === null} onClick={() => void submit()}>
          提交
        </button>
      }
    >
      <div className="room-dialog__reasons">
        {REPORT_REASONS.map((r) => (
          <label key={r.id} className={`room-dialog__reason${reason === r.id ? ' is-active' : ''}`}>
            <input type="radio" name="reason" checked={reason === r.id} onChange={() => setReason(r.id)} />
            {r.name}
          </label>
        ))}
      </div>
      <textarea className="input room-dialog__text" maxLength={200} placeholder="补充说明（选填）" value={text} onChange={(e) => setText(e.target.value)} />
    </Modal>
  );
}

/** Room settings: the room form of §2.12 for the open room (its game stays). */
export const SettingsDialog = observer(function SettingsDialog({ onClose }: { onClose: () => void }) {
  const room = useLoadedRoom();
  const info = room.info;
  const [form, setForm] = useState<RoomForm>(() => ({
    roomName: info?.room.roomName ?? '',
    mode: info?.room.mode ?? 2,
    gameId: info?.game.id ?? null,
    password: '',
    isShow: (info?.room.isShow ?? 1) === 1,
  }));
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const bad = validateRoomForm(form, true);
    if (bad) {
      setError(bad);
      return;
    }
    if (await room.edit(form)) onClose();
  };
  return (
    <Modal
      title="房间设置"
      testId="settings-dialog"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--primary" onClick={() => void submit()}>
          保存
        </button>
      }
    >
      <div className="room-form">
        <label className="room-form__field">
          <span>房间名称</span>
          <input className="input" maxLength={15} value={form.roomName} onChange={(e) => setForm({ ...form, roomName: e.target.value })} />
        </label>
        <label className="room-form__field">
          <span>房间密码（选填）</span>
          <input className="input" inputMode="numeric" maxLength={4} placeholder="4位数字" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value.replace(/\D/g, '') })} />
        </label>
        <label className="room-form__check">
          <input type="checkbox" checked={form.isShow} onChange={(e) => setForm({ ...form, isShow: e.target.checked })} />
          公开展示房间
        </label>
        {error && <p className="form-error">{error}</p>}
      </div>
    </Modal>
  );
});
