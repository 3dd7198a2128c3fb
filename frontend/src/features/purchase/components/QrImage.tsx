import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code of `text` as an SVG: one path of dark modules on a light square, so phones scan it
 * on the dark theme too. The text stays readable to tests and assistive tools as a data attribute.
 */
export function QrImage({ text, size, label = '支付二维码' }: { text: string; size: number; label?: string }) {
  const { path, n } = useMemo(() => {
    const qr = encode(text, { ecc: 'M', border: 2 });
    let d = '';
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { path: d, n: qr.size };
  }, [text]);
  return (
    <svg className="qr-pay__image" width={size} height={size} viewBox={`0 0 ${n} ${n}`} shapeRendering="crispEdges" role="img" aria-label={label} data-text={text}>
      <rect width={n} height={n} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
