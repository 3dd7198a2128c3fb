import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { GameCard, gameDetailPath } from '../../../components/GameCard';
import { useStores } from '../stores/context';

export const HomePage = observer(function HomePage() {
  const { catalogue } = useStores();
  const navigate = useNavigate();

  useEffect(() => {
    void catalogue.loadHome();
  }, [catalogue]);

  return (
    <div className="home">
      <section className="hero">
        <div className="hero__glow" aria-hidden="true" />
        <div className="container hero__inner">
          <h1 className="hero__title">
            云端畅玩 <span className="text-gradient">3A 大作</span>
          </h1>
          <p className="hero__text">无需下载，不挑配置，打开浏览器即点即玩</p>
          <div className="hero__actions">
            <Link to="/game" className="btn btn--primary btn--xl">
              进入游戏库
            </Link>
            <Link to="/game/live" className="btn btn--ghost btn--xl">
              一起玩
            </Link>
          </div>
        </div>
      </section>
      <section className="container section">
        <div className="section__head">
          <h2 className="section__title">热门游戏</h2>
          <Link to="/game" className="section__more">
            查看全部 ›
          </Link>
        </div>
        {catalogue.homeLoaded && catalogue.homeGames.length === 0 ? (
          <div className="empty">暂无相关游戏</div>
        ) : (
          <div className="game-grid" data-testid="home-games">
            {catalogue.homeGames.map((g) => (
              <GameCard key={g.id} game={g} onOpen={(game) => navigate(gameDetailPath(game.id))} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
});
