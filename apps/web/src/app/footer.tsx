import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appConfig, type FooterLinks, issuerName } from '@/lib/config';
import '@/app/identity.css';

/** The app stores and the ministry's networks, from the runtime configuration: a link not set is not shown. */
const STORE_LINKS = [
  { config: 'androidApp', key: 'footer.googlePlay' },
  { config: 'iosApp', key: 'footer.appStore' },
] as const satisfies readonly { config: keyof FooterLinks; key: string }[];

const SOCIAL_LINKS = [
  { config: 'facebook', name: 'Facebook' },
  { config: 'x', name: 'X' },
  { config: 'linkedin', name: 'LinkedIn' },
  { config: 'youtube', name: 'YouTube' },
] as const satisfies readonly { config: keyof FooterLinks; name: string }[];

export function Footer({ links = appConfig.links, issuer = appConfig.issuer }: { links?: FooterLinks; issuer?: typeof appConfig.issuer } = {}) {
  const { t, i18n } = useTranslation();
  const year = new Date().getFullYear();
  const name = issuerName(i18n.language, issuer);
  const stores = STORE_LINKS.flatMap((store) => (links[store.config] ? [{ ...store, href: links[store.config]! }] : []));
  const socials = SOCIAL_LINKS.flatMap((social) => (links[social.config] ? [{ ...social, href: links[social.config]! }] : []));
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        {stores.length > 0 ? (
          <section aria-labelledby="footer-app">
            <h2 id="footer-app">{t('footer.appTitle')}</h2>
            <p>{t('footer.appText')}</p>
            <ul className="store-links">
              {stores.map((store) => (
                <li key={store.key}>
                  <a className="store-badge" href={store.href} rel="noopener noreferrer" target="_blank">
                    {t(store.key)}
                    <span className="visually-hidden"> {t('common.newTab')}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {socials.length > 0 ? (
          <section aria-labelledby="footer-social">
            <h2 id="footer-social">{t('footer.socialTitle')}</h2>
            <ul className="social-links">
              {socials.map((social) => (
                <li key={social.name}>
                  <a href={social.href} rel="noopener noreferrer" target="_blank">
                    {social.name}
                    <span className="visually-hidden"> {t('common.newTab')}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">{t('footer.contactTitle')}</h2>
          <p>{t('footer.contactText', { email: issuer.email })}</p>
          <address className="footer-issuer">
            <strong>{name}</strong>
            {issuer.address ? <span>{issuer.address}</span> : null}
            <a href={`mailto:${issuer.email}`}>{issuer.email}</a>
            {issuer.phone ? <a href={`tel:${issuer.phone.replace(/[^\d+]/g, '')}`}>{issuer.phone}</a> : null}
            {issuer.website ? (
              <a href={issuer.website} rel="noopener noreferrer" target="_blank">
                {t('footer.website')}
                <span className="visually-hidden"> {t('common.newTab')}</span>
              </a>
            ) : null}
          </address>
          <ul className="footer-links">
            <li>
              <Link to="/contact">{t('nav.contact')}</Link>
            </li>
            <li>
              <Link to="/terms-and-conditions">{t('footer.terms')}</Link>
            </li>
            <li>
              <Link to="/privacy-policy">{t('footer.privacy')}</Link>
            </li>
          </ul>
        </section>
      </div>
      <div className="site-footer__bottom">
        <p className="container">{t('footer.copyright', { year, appName: appConfig.appName, issuer: name })}</p>
      </div>
    </footer>
  );
}
