import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { webRuntimeConfig } from './web.ts';

describe("the issuer's identity handed to the site (ADR 0129)", () => {
  it('gives the demo ministry, and no footer link that is not configured', () => {
    const web = webRuntimeConfig(loadConfig({}));
    expect(web.issuer).toMatchObject({
      name: "Ministère de l'Éducation nationale et Nouvelle Citoyenneté",
      nameEn: 'Ministry of National Education and New Citizenship',
      shortName: 'EDU-NC',
    });
    expect(Object.values(web.links).every((link) => link === null)).toBe(true);
    expect(web.phoneCountry).toBe('CD');
  });

  it('takes every part from the environment', () => {
    const config = loadConfig({
      ISSUER_NAME: 'Ministère de la Santé',
      ISSUER_NAME_EN: 'Ministry of Health',
      ISSUER_SHORT_NAME: 'MS',
      ISSUER_EMBLEM_URL: '/emblem.svg',
      ISSUER_ADDRESS: 'Boulevard du 30 Juin, Kinshasa',
      ISSUER_PHONE: '+243812345678',
      ISSUER_WEBSITE: 'https://sante.gouv.cd',
      CONTACT_EMAIL: 'diplomes@sante.gouv.cd',
      LINK_FACEBOOK: 'https://www.facebook.com/sante.cd',
      LINK_ANDROID_APP: 'https://play.google.com/store/apps/details?id=cd.sante',
      PHONE_DEFAULT_COUNTRY: 'FR',
    });
    const web = webRuntimeConfig(config);
    expect(web.issuer).toEqual({
      id: config.issuer.id,
      name: 'Ministère de la Santé',
      nameEn: 'Ministry of Health',
      shortName: 'MS',
      emblemUrl: '/emblem.svg',
      address: 'Boulevard du 30 Juin, Kinshasa',
      email: 'diplomes@sante.gouv.cd',
      phone: '+243812345678',
      website: 'https://sante.gouv.cd',
    });
    expect(web.links).toMatchObject({
      facebook: 'https://www.facebook.com/sante.cd',
      androidApp: 'https://play.google.com/store/apps/details?id=cd.sante',
      x: null,
      youtube: null,
    });
    expect(web.phoneCountry).toBe('FR');
    // The signing certificate and the credentials carry the same name.
    expect(config.keys.organization).toBe('Ministère de la Santé');
  });

  it('refuses a footer link that is not a URL', () => {
    expect(() => loadConfig({ LINK_X: '#' })).toThrow(/LINK_X/);
  });
});
