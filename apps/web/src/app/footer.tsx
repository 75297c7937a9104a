import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appConfig } from '@/lib/config';

/** Store pages and the ministry's networks; real account addresses come with the launch. */
const STORE_LINKS = [
  { key: 'footer.googlePlay', href: 'https://play.google.com/store' },
  { key: 'footer.appStore', href: 'https://www.apple.com/app-store/' },
] as const;

const SOCIAL_LINKS = [
  { name: 'Facebook', href: 'https://www.facebook.com/' },
  { name: 'X', href: 'https://x.com/' },
  { name: 'LinkedIn', href: 'https://www.linkedin.com/' },
  { name: 'YouTube', href: 'https://www.youtube.com/' },
] as const;

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <section aria-labelledby="footer-app">
          <h2 id="footer-app">{t('footer.appTitle')}</h2>
          <p>{t('footer.appText')}</p>
          <ul className="store-links">
            {STORE_LINKS.map((store) => (
              <li key={store.key}>
                <a className="store-badge" href={store.href} rel="noopener noreferrer" target="_blank">
                  {t(store.key)}
                  <span className="visually-hidden"> {t('common.newTab')}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social">{t('footer.socialTitle')}</h2>
          <ul className="social-links">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.name}>
                <a href={social.href} rel="noopener noreferrer" target="_blank">
                  {social.name}
                  <span className="visually-hidden"> {t('common.newTab')}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">{t('footer.contactTitle')}</h2>
          <p>{t('footer.contactText', { email: appConfig.contactEmail })}</p>
          <p>
            <a href={`mailto:${appConfig.contactEmail}`}>{appConfig.contactEmail}</a>
          </p>
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
        <p className="container">{t('footer.copyright', { year, appName: appConfig.appName })}</p>
      </div>
    </footer>
  );
}
