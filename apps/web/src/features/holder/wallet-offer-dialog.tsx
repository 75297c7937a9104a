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

/** Whether the holder last chose a transaction code: kept on this device, so the next offer is made the same way. */
const TX_CODE_CHOICE = 'sceau.wallet-tx-code';
function storedTxCodeChoice(): boolean {
  try {
    return window.localStorage.getItem(TX_CODE_CHOICE) === '1';
  } catch {
    return false;
  }
}
function storeTxCodeChoice(on: boolean) {
  try {
    window.localStorage.setItem(TX_CODE_CHOICE, on ? '1' : '0');
  } catch {
    // A browser without storage asks again next time.
  }
}

/**
 * The transaction code, hidden until asked for: the QR code may be on a screen others see, the
 * code is for the holder to read and type into the wallet.
 */
function TransactionCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <div className="holder-wallet__code stack" data-testid="wallet-offer-tx-code">
      <p>{t('holder.wallet.txCodeHint')}</p>
      {shown ? (
        <p className="holder-wallet__digits">
          <span className="visually-hidden">{t('holder.wallet.txCodeLabel', { code: code.split('').join(' ') })}</span>
          <span aria-hidden="true">
            {code.slice(0, 3)} {code.slice(3)}
          </span>
        </p>
      ) : null}
      <button type="button" className="button button--secondary" aria-pressed={shown} onClick={() => setShown((value) => !value)}>
        {shown ? t('holder.wallet.txCodeHide') : t('holder.wallet.txCodeShow')}
      </button>
    </div>
  );
}

/**
 * "Add to a wallet" (OpenID4VCI pre-authorised code flow, ADR 0146): the button makes a new
 * single-use offer and opens the dialog; a wallet scans its QR code, or on the phone itself the
 * `openid-credential-offer://` link opens it. Its expiry is shown; an expired one can be renewed.
 * The holder may ask for a transaction code as well (a new offer, the choice kept on this device).
 */
export function WalletOfferButton({ diplomaId }: { diplomaId: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [txCode, setTxCode] = useState(storedTxCodeChoice);
  const mutation = useWalletOffer();
  const offer = { ...mutation, mutate: (withCode = txCode) => mutation.mutate({ id: diplomaId, txCode: withCode }) };
  const expired = useExpired(offer.data);
  const time = offer.data ? new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(new Date(offer.data.expires_at)) : '';

  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => {
          setOpen(true);
          offer.mutate();
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
          mutation.reset();
        }}
      >
        <div className="stack holder-wallet" data-testid="wallet-offer">
          {offer.isPending ? (
            <p role="status" aria-live="polite">
              {t('holder.wallet.creating')}
            </p>
          ) : null}
          <ErrorAlert error={offer.error} onRetry={() => offer.mutate()} />
          <label className="holder-wallet__choice">
            <input
              type="checkbox"
              checked={txCode}
              disabled={offer.isPending}
              onChange={(event) => {
                const on = event.target.checked;
                setTxCode(on);
                storeTxCodeChoice(on);
                offer.mutate(on);
              }}
            />{' '}
            {t('holder.wallet.txCodeChoice')}
          </label>
          {offer.data && !expired ? (
            <>
              <OfferQrCode value={offer.data.offer_uri} label={t('holder.wallet.qr')} />
              <p className="muted" data-testid="wallet-offer-expiry">
                {t('holder.wallet.expires', { time })}
              </p>
              {offer.data.tx_code ? <TransactionCode key={offer.data.tx_code} code={offer.data.tx_code} /> : null}
              <a className="button" href={offer.data.offer_uri} data-testid="wallet-offer-link">
                {t('holder.wallet.open')}
              </a>
            </>
          ) : null}
          {offer.data && expired ? (
            <div className="stack">
              <p role="alert">{t('holder.wallet.expired')}</p>
              <button type="button" className="button" onClick={() => offer.mutate()}>
                {t('holder.wallet.renew')}
              </button>
            </div>
          ) : null}
        </div>
      </Dialog>
    </>
  );
}
