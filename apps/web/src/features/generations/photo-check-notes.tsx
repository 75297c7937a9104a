import { useTranslation } from 'react-i18next';
import type { ImportCheckResult } from '@/features/generations/issuing-api';

/**
 * The list check's photos, row by row (ADR 0147): each row the zip gives no photo, named, and each
 * photo that will print poorly (too small, landscape), with its row and file. Neither stops the
 * import: the rows go in, the photos can be added later.
 */
export function PhotoCheckNotes({ photos }: { photos: ImportCheckResult['photos'] }) {
  const { t } = useTranslation();
  if (!photos) return null;
  const missing = photos.missing ?? [];
  const warnings = photos.warnings ?? [];
  return (
    <>
      {warnings.length > 0 ? (
        <details open data-testid="check-photo-warnings">
          <summary>
            {t('checkFile.photosWarnings')} ({warnings.length})
          </summary>
          <ul className="stack" style={{ overflowWrap: 'anywhere' }}>
            {warnings.map((w) => (
              <li key={`${w.row}-${w.code}`} data-code={w.code}>
                {t('checkFile.errorRow')} {w.row} — {w.candidate_code} — {w.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {missing.length > 0 ? (
        <details data-testid="check-photo-missing">
          <summary>
            {t('checkFile.photosMissing')} ({missing.length})
          </summary>
          <ul className="stack" style={{ overflowWrap: 'anywhere' }}>
            {missing.map((m) => (
              <li key={m.row}>{t('checkFile.photoMissingRow', { row: m.row, code: m.candidate_code })}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
