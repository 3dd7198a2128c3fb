export function LivePage() {
  return (
    <div className="status-page" data-testid="live-placeholder">
      <div className="status-page__icon" aria-hidden="true">
        🎮
      </div>
      <h1 className="status-page__title">一起玩</h1>
      <p className="status-page__text">一起玩功能即将开放，敬请期待</p>
    </div>
  );
}
