import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { dynamicKey, translate } from '@/lib/text-keys';

async function instance() {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'fr',
    ns: ['web', 'errors'],
    defaultNS: 'web',
    resources: { fr: { web: { greet: { hello: 'Bonjour {{name}}' }, list: ['un', 'deux'] }, errors: { field: { required: 'Ce champ est requis' } } } },
    interpolation: { escapeValue: false },
  });
  return i18n;
}

describe('translate', () => {
  it('reads a key held in a variable, by the instance (a method) or by its t()', async () => {
    const i18n = await instance();
    const key = dynamicKey('greet.hello');
    expect(translate(i18n, key, { name: 'Awa' })).toBe('Bonjour Awa');
    expect(translate(i18n.getFixedT('fr'), key, { name: 'Awa' })).toBe('Bonjour Awa');
    expect(translate(i18n, dynamicKey('errors:field.required'))).toBe('Ce champ est requis');
  });

  it('gives the fallback for a key the catalogue lacks, and a list with returnObjects', async () => {
    const i18n = await instance();
    expect(translate(i18n, dynamicKey('roles.custom_role'), { defaultValue: 'custom_role' })).toBe('custom_role');
    expect(translate(i18n, dynamicKey('list'), { returnObjects: true })).toEqual(['un', 'deux']);
  });
});
