import { useState } from 'react';

export function Avatar({ src, name, size = 32 }: { src?: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.45 }}>
      {src && !failed ? <img src={src} alt="" onError={() => setFailed(true)} /> : (name || '玩').slice(0, 1)}
    </span>
  );
}
