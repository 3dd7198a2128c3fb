import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useStores } from '../stores/context';

/** Youth mode's status (core-platform.md §3.1): 2 a minor. */
const YOUTH_MINOR = 2;

/**
 * /children (core-platform.md §2.1): minors' protection and guardians. The caller's youth mode
 * (from `youth-mode/info`, i.e. the certified age) and the rules it applies.
 */
export const ChildrenPage = observer(function ChildrenPage() {
  const { user, api, ui } = useStores();
  const [status, setStatus] = useState<number | null>(null);
  const loggedIn = user.isLoggedIn;
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    api.get('/api/v3/user/youth-mode/info').then(
      (r) => live && setStatus(r.status),
      () => live && setStatus(null),
    );
    return () => {
      live = false;
    };
  }, [api, loggedIn]);
  return (
    <div className="page container children" data-testid="children-page">
      <h1>未成年人保护</h1>
      {loggedIn ? (
        <p data-testid="youth-mode">{status === null ? '' : status === YOUTH_MINOR ? '青少年模式：已开启' : '青少年模式：未开启'}</p>
      ) : (
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录后查看青少年模式
        </button>
      )}
      <h2>防沉迷规则</h2>
      <ul className="children__rules">
        <li>未满18周岁的用户仅可在周五、周六、周日和法定节假日的20时至21时进行游戏，其他时间无法开始游戏，进行中的游戏将在21时结束。</li>
        <li>未满8周岁的用户不能使用充值服务；8周岁以上未满16周岁的用户，单次充值不得超过50元，每月累计不得超过200元；16周岁以上未满18周岁的用户，单次充值不得超过100元，每月累计不得超过400元。</li>
        <li>未成年人不能开启一起玩房间、进入房间或获取游戏控制权。</li>
        <li>青少年模式依据实名认证的年龄自动开启，年满18周岁后自动关闭。</li>
      </ul>
      <h2>家长监护</h2>
      <p>家长可通过客服申请查询或限制孩子账号的游戏时间与充值，如发现未成年人充值，可联系客服申请退款。</p>
    </div>
  );
});
