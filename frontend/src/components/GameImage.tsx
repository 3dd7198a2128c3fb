import { useState } from 'react';

/** A game picture that falls back to a gradient with the game's first character. */
export function GameImage({ src, name, className }: { src?: string | null; name: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const show = src && failed !== src;
  return (
    <div className={`game-image ${className ?? ''}`}>
      {show ? (
        <img src={src} alt={name} loading="lazy" draggable={false} onError={() => setFailed(src)} />
      ) : (
        <span className="game-image__fallback" aria-hidden="true">
          {name.slice(0, 1)}
        </span>
      )}
    </div>
  );
}
