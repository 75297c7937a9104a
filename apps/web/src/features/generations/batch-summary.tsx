import { type GenerationView, isPublished } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';
import { GenerationProgress, GenerationStatusBadge, SignatureStatusBadge, generationLabel, generationTypeLabel } from '@/components/generation-status';
import { CopyButton, shortenHash } from '@/components/copy-button';
import { BroadcastPanel } from '@/features/generations/broadcast-panel';
import { formatDateTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { BatchActions } from '@/features/generations/batch-actions';
import { RefusalNote } from '@/features/generations/refusal-note';

type Batch = GenerationView;

export function BatchSummary({ batch }: { batch: Batch }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const label = generationLabel(t, batch);
  const dash = '—';

  return (
    <>
      <header className="page-header" data-testid="batch-header">
        <div>
          <h1>{label}</h1>
          <p className="muted">{[generationTypeLabel(t, batch.type), batch.session.name, batch.province.name].join(' · ')}</p>
          <p>
            <GenerationStatusBadge status={batch.status} />
            <SignatureStatusBadge status={batch.signature_status} />
          </p>
        </div>
        <BatchActions batch={batch} label={label} />
      </header>

      {/* A signature the batch cannot receive, and why (made with a key since retired: cancel it, ADR 0148). */}
      <RefusalNote refusal={batch.refusals.sign} testId="sign-refused" />

      {batch.status === 'failed' && batch.last_error ? (
        <div className="alert alert--error" role="alert" data-testid="batch-last-error">
          <p>
            <strong>{t('batch.lastError')}</strong> {batch.last_error}
          </p>
        </div>
      ) : null}

      <section className="card" aria-labelledby="batch-facts">
        <h2 id="batch-facts">{t('batch.factsTitle')}</h2>
        <dl className="facts">
          <div>
            <dt>{t('batch.fields.type')}</dt>
            <dd>{generationTypeLabel(t, batch.type)}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.session')}</dt>
            <dd>{batch.session.name}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.province')}</dt>
            <dd>{batch.province.name}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.institution')}</dt>
            <dd>{batch.institution?.name ?? t('batch.all')}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.centre')}</dt>
            <dd>{batch.centre?.name ?? t('batch.all')}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.option')}</dt>
            <dd>{batch.option?.name ?? t('batch.all')}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.candidates')}</dt>
            <dd data-testid="batch-count-items">{batch.counts.items}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.rejected')}</dt>
            <dd data-testid="batch-count-rejected">{batch.counts.rejected}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.diplomas')}</dt>
            <dd data-testid="batch-count-diplomas">{batch.counts.diplomas}</dd>
          </div>
          {batch.progress.total > 0 && !isPublished(batch.status) ? (
            <div>
              <dt>{t('batch.fields.progress')}</dt>
              <dd>
                <GenerationProgress progress={batch.progress} label={t('generations.progressOf', { name: label })} />
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t('batch.fields.createdAt')}</dt>
            <dd>
              <time dateTime={batch.created_at}>{formatDateTime(batch.created_at, locale)}</time>
            </dd>
          </div>
          <div>
            <dt>{t('batch.fields.publishedAt')}</dt>
            <dd>{batch.published_at ? <time dateTime={batch.published_at}>{formatDateTime(batch.published_at, locale)}</time> : dash}</dd>
          </div>
        </dl>
      </section>

      {batch.anchor ? <AnchorProof batch={batch} anchor={batch.anchor} /> : null}

      <BroadcastPanel batch={batch} />
    </>
  );
}

/** Where the batch's root was written: enough for anyone to look the transaction up. */
function AnchorProof({ batch, anchor }: { batch: Batch; anchor: NonNullable<Batch['anchor']> }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  return (
    <section className="card" aria-labelledby="batch-anchor" data-testid="batch-anchor">
      <h2 id="batch-anchor">{t('batch.anchor.title')}</h2>
      <p className="muted">{t('batch.anchor.intro')}</p>
      <dl className="facts">
        <div>
          <dt>{t('batch.anchor.chain')}</dt>
          <dd>{anchor.chain_id}</dd>
        </div>
        <div>
          <dt>{t('batch.anchor.contract')}</dt>
          <dd className="copy-row">
            <code className="hash" title={anchor.contract}>
              {shortenHash(anchor.contract)}
            </code>
            <CopyButton value={anchor.contract} label={t('batch.anchor.copyContract')} />
          </dd>
        </div>
        <div>
          <dt>{t('batch.anchor.transaction')}</dt>
          <dd className="copy-row">
            <code className="hash" title={anchor.tx_hash} data-testid="anchor-tx">
              {shortenHash(anchor.tx_hash)}
            </code>
            <CopyButton value={anchor.tx_hash} label={t('batch.anchor.copyTransaction')} />
          </dd>
        </div>
        <div>
          <dt>{t('batch.anchor.block')}</dt>
          <dd>{anchor.block_number}</dd>
        </div>
        <div>
          <dt>{t('batch.anchor.date')}</dt>
          <dd>
            <time dateTime={anchor.anchored_at}>{formatDateTime(anchor.anchored_at, locale)}</time>
          </dd>
        </div>
        {batch.merkle_root ? (
          <div>
            <dt>{t('batch.anchor.root')}</dt>
            <dd className="copy-row">
              <code className="hash" title={batch.merkle_root}>
                {shortenHash(batch.merkle_root)}
              </code>
              <CopyButton value={batch.merkle_root} label={t('batch.anchor.copyRoot')} />
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
