import encodeQR from 'qr';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { ErrorAlert } from '@/components/error-alert';
import { useWalletOffer, type WalletOfferView } from './holder-api';

/**
 * The offer's link as a QR code, drawn as SVG squares (no markup from a string). Low error
 * correction: it is read from a screen, not a worn print, and the offer by value (about 400
 * characters) then fits version 13 (69 modules) instead of 15.
 */
function OfferQrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const modules = encodeQR(value, 'raw', { ecc: 'low', border: 4 });
    let d = '';
    modules.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      });
    });
    return { size: modules.length, path: d };
  }, [value]);
  return (
    <svg className="holder-wallet__qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges" data-testid="wallet-offer-qr">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** Whether the offer's code has expired, checked again every few seconds while it is shown. */
function useExpired(offer: WalletOfferView | undefined): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!offer) return;
    const timer = window.setInterval(() => setNow(Date.now()), 5000);
    return () => window.clearInterval(timer);
  }, [offer]);
  return offer ? new Date(offer.expires_at).getTime() <= now : false;
}

/**
 * "Add to a wallet" (OpenID4VCI pre-authorised code flow, ADR 0146): the button makes a new
 * single-use offer and opens the dialog; a wallet scans its QR code, or on the phone itself the
 * `openid-credential-offer://` link opens it. Its expiry is shown; an expired one can be renewed.
 */
export function WalletOfferButton({ diplomaId }: { diplomaId: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const offer = useWalletOffer();
  const expired = useExpired(offer.data);
  const time = offer.data ? new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(new Date(offer.data.expires_at)) : '';

  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => {
          setOpen(true);
          offer.mutate(diplomaId);
        }}
      >
        {t('holder.diplomas.addToWallet')}
      </button>
      <Dialog
        open={open}
        title={t('holder.wallet.title')}
        description={t('holder.wallet.intro')}
        onClose={() => {
          setOpen(false);
          offer.reset();
        }}
      >
        <div className="stack holder-wallet" data-testid="wallet-offer">
          {offer.isPending ? (
            <p role="status" aria-live="polite">
              {t('holder.wallet.creating')}
            </p>
          ) : null}
          <ErrorAlert error={offer.error} onRetry={() => offer.mutate(diplomaId)} />
          {offer.data && !expired ? (
            <>
              <OfferQrCode value={offer.data.offer_uri} label={t('holder.wallet.qr')} />
              <p className="muted" data-testid="wallet-offer-expiry">
                {t('holder.wallet.expires', { time })}
              </p>
              <a className="button" href={offer.data.offer_uri} data-testid="wallet-offer-link">
                {t('holder.wallet.open')}
              </a>
            </>
          ) : null}
          {offer.data && expired ? (
            <div className="stack">
              <p role="alert">{t('holder.wallet.expired')}</p>
              <button type="button" className="button" onClick={() => offer.mutate(diplomaId)}>
                {t('holder.wallet.renew')}
              </button>
            </div>
          ) : null}
        </div>
      </Dialog>
    </>
  );
}
