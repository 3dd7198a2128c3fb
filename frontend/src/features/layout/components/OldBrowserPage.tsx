/** /ie/download/: the page old browsers are sent to (core-platform.md §5.5). */
export function OldBrowserPage() {
  return (
    <div className="status-page old-browser" data-testid="old-browser">
      <h1 className="status-page__title">您当前浏览器版本较低，游戏无法运行</h1>
      <p className="status-page__text">为了获得流畅的云游戏体验，推荐下载并使用以下浏览器的最新版本：</p>
      <ul className="old-browser__list">
        <li>
          <a href="https://www.google.cn/chrome/" target="_blank" rel="noreferrer">
            Google Chrome 浏览器
          </a>
        </li>
        <li>
          <a href="https://www.microsoft.com/zh-cn/edge" target="_blank" rel="noreferrer">
            Microsoft Edge 浏览器
          </a>
        </li>
      </ul>
      <a href="/" className="btn btn--primary">
        返回首页
      </a>
    </div>
  );
}
