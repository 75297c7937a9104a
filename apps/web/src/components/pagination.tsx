import type { PageMeta } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';

/** Previous / next over a paged list (spec section 7: pagination by page number). */
export function Pagination({ meta, onPage, label }: { meta: PageMeta | undefined; onPage: (page: number) => void; label: string }) {
  const { t } = useTranslation();
  if (!meta) return null;
  const { current_page: page, last_page: pages, total } = meta;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.previous')}
      </button>
      <span className="pagination__status" aria-live="polite">
        {t('common.pageOf', { page, pages: Math.max(1, pages) })} · {t('common.total', { count: total })}
      </span>
      <button type="button" className="button button--secondary button--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}
