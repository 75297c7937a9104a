import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appConfig, issuerName } from '@/lib/config';
import { useDocumentTitle } from '@/lib/use-document-title';
import { HomeCounters } from '@/features/home/home-counters';

const STEPS = ['one', 'two', 'three'] as const;
const BENEFITS = ['authentic', 'instant', 'everywhere'] as const;
const AUDIENCES = ['holders', 'checkers', 'institutions'] as const;

export function HomePage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('home.documentTitle'));
  const issuer = issuerName(i18n.language);
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <div className="container hero__inner">
          <p className="hero__eyebrow issuer-line" data-testid="home-issuer">
            {appConfig.issuer.emblemUrl ? <img src={appConfig.issuer.emblemUrl} alt="" width={48} height={48} /> : null}
            <span>{t('home.eyebrowIssuer', { issuer })}</span>
          </p>
          <h1 id="home-title">{t('home.title', { appName: appConfig.appName })}</h1>
          <p className="hero__lead">{t('home.lead')}</p>
          <div className="actions">
            <Link className="button button--large button--accent" to="/verification">
              {t('home.verifyCta')}
            </Link>
            <Link className="button button--large button--on-dark" to="/student-check">
              {t('home.studentCheckCta')}
            </Link>
          </div>
        </div>
      </section>

      <HomeCounters />

      <section className="section" aria-labelledby="home-benefits">
        <div className="container">
          <h2 id="home-benefits" className="section__title">
            {t('home.benefitsTitle')}
          </h2>
          <ul className="card-grid">
            {BENEFITS.map((benefit) => (
              <li key={benefit} className="card feature">
                <h3>{t(`home.benefits.${benefit}.title`)}</h3>
                <p>{t(`home.benefits.${benefit}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="home-steps">
        <div className="container">
          <h2 id="home-steps" className="section__title">
            {t('home.stepsTitle')}
          </h2>
          <p className="section__lead">{t('home.stepsLead')}</p>
          <ol className="steps">
            {STEPS.map((step, index) => (
              <li key={step} className="step">
                <span className="step__number" aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h3>{t(`home.steps.${step}.title`)}</h3>
                  <p>{t(`home.steps.${step}.text`)}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="home-audiences">
        <div className="container">
          <h2 id="home-audiences" className="section__title">
            {t('home.audiencesTitle')}
          </h2>
          <ul className="card-grid">
            {AUDIENCES.map((audience) => (
              <li key={audience} className="card feature">
                <h3>{t(`home.audiences.${audience}.title`)}</h3>
                <p>{t(`home.audiences.${audience}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section cta-band" aria-labelledby="home-cta">
        <div className="container cta-band__inner">
          <div>
            <h2 id="home-cta">{t('home.ctaTitle')}</h2>
            <p>{t('home.ctaText')}</p>
          </div>
          <Link className="button button--large button--accent" to="/verification">
            {t('home.verifyCta')}
          </Link>
        </div>
      </section>
    </>
  );
}
