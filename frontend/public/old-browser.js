// Old browsers (MSIE, Trident rv:11) cannot run the app: they are sent to /ie/download/ before any
// module loads, and that page shows its notice without the app. A file, not an inline script: the
// Content-Security-Policy allows scripts from the site only (script-src 'self').
(function () {
  var ua = navigator.userAgent;
  if (!/MSIE|Trident.*rv:11/.test(ua)) return;
  if (location.pathname.indexOf('/ie/download') !== 0) {
    location.replace('/ie/download/');
    return;
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.getElementById('root').innerHTML =
      '<div style="padding:80px 20px;text-align:center;font-family:sans-serif;color:#333">' +
      '<h1>您当前浏览器版本较低，游戏无法运行</h1>' +
      '<p>推荐下载使用最新版 Chrome 或 Microsoft Edge 浏览器</p>' +
      '<p><a href="https://www.google.cn/chrome/">下载 Chrome</a> &nbsp; <a href="https://www.microsoft.com/edge">下载 Edge</a></p></div>';
  });
})();
