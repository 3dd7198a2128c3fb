/** Page numbers with previous/next; a window of pages around the current one. */
export function Pagination({ page, pageCount, onChange }: { page: number; pageCount: number; onChange: (page: number) => void }) {
  if (pageCount <= 1) return null;
  const pages: (number | '…')[] = [];
  const from = Math.max(1, page - 2);
  const to = Math.min(pageCount, page + 2);
  if (from > 1) pages.push(1);
  if (from > 2) pages.push('…');
  for (let p = from; p <= to; p++) pages.push(p);
  if (to < pageCount - 1) pages.push('…');
  if (to < pageCount) pages.push(pageCount);
  return (
    <nav className="pagination" aria-label="分页" data-testid="pagination">
      <button type="button" className="pagination__btn" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        上一页
      </button>
      {pages.map((p, i) =>
        p === '…' ? (
          <span key={`gap-${i}`} className="pagination__gap">
            …
          </span>
        ) : (
          <button
            type="button"
            key={p}
            className={`pagination__btn${p === page ? ' is-active' : ''}`}
            aria-current={p === page ? 'page' : undefined}
            onClick={() => onChange(p)}
          >
            {p}
          </button>
        ),
      )}
      <button type="button" className="pagination__btn" disabled={page >= pageCount} onClick={() => onChange(page + 1)}>
        下一页
      </button>
    </nav>
  );
}
