/**
 * Every page of the platform, in both languages and at both widths, held to the standards of
 * page-audit.ts (no serious accessibility violation, no text of the other language, no raw key)
 * and photographed under e2e/artifacts/screenshots/tour-*.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { auditPage, useLocale, VIEWPORTS, type Locale, type Width } from './page-audit.ts';
import { signIn } from './support.ts';

type Demo = { batchId: number; diplomaId: string; templateId: number };

async function demo(request: APIRequestContext): Promise<Demo> {
  const login = await request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: 'root@sceau.example', password: 'Sceau-Demo-2026' },
  });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const [batch] = (await (await request.get('/api/generations/by-user', { headers })).json()).data;
  const detail = (await (await request.get(`/api/generations/${batch.id}`, { headers })).json()).data;
  const template = (await (await request.get('/api/templates/drc', { headers })).json()).data;
  return { batchId: batch.id, diplomaId: detail.items[0].diploma.id, templateId: template.id };
}

const publicPages = (d: Demo): [string, string][] => [
  ['home', '/'],
  ['verification', '/verification'],
  ['verify', `/verify/${d.diplomaId}`],
  ['verify-unknown', '/verify/AAAAAAAAAAAAAAAAAAAAAA'],
  ['view-certificate', `/view-certificate?id=${d.diplomaId}`],
  ['student-check', '/student-check'],
  ['mon-exetat', '/mon-exetat'],
  ['contact', '/contact'],
  ['privacy-policy', '/privacy-policy'],
  ['terms', '/terms-and-conditions'],
  ['phone-test', '/phone-test'],
  ['direct-auth-invalid', '/direct-auth?token=unknown'],
  ['login', '/login'],
  ['register', '/register'],
  ['forgot-password', '/forgot-password'],
  ['not-found', '/cette-page-n-existe-pas'],
];

const staffPages = (d: Demo): [string, string][] => [
  ['dashboard', '/dashboard'],
  ['certificates', '/certificates'],
  ['check-file', `/check-file/${d.templateId}`],
  ['show', `/show/${d.batchId}`],
  ['validate-picture', `/validate-picture/${d.batchId}`],
  ['validate-data', `/validate-data/${d.batchId}`],
  ['student-reject', `/student-reject/${d.batchId}`],
  ['validated', '/validated'],
  ['role-access', '/role-access'],
  ['settings', '/settings'],
  ['audit-log', '/audit-log'],
  ['permission-test', '/permission-test'],
];

for (const locale of ['fr', 'en'] as Locale[]) {
  for (const width of ['phone', 'desktop'] as Width[]) {
    test.describe(`every page in ${locale} at ${width} width`, () => {
      test.use({ viewport: VIEWPORTS[width], locale: locale === 'fr' ? 'fr-FR' : 'en-GB' });

      test('public pages', async ({ page }) => {
        test.setTimeout(180_000);
        const d = await demo(page.request);
        await useLocale(page, locale);
        for (const [name, path] of publicPages(d)) {
          await page.goto(path);
          await expect(page.locator('main, [role="main"]').first()).toBeVisible();
          await auditPage(page, `tour-public-${name}`, locale, width);
        }
      });

      test('back-office pages, signed in as root', async ({ page }) => {
        test.setTimeout(180_000);
        const d = await demo(page.request);
        await useLocale(page, locale);
        await signIn(page, 'root@sceau.example');
        for (const [name, path] of staffPages(d)) {
          await page.goto(path);
          await expect(page, `${name} is not refused`).toHaveURL(new RegExp(path.replace(/[/?]/g, '\\$&') + '$'));
          await auditPage(page, `tour-staff-${name}`, locale, width);
        }
      });
    });
  }
}
