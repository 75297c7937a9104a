import { APP_ROUTES, checkRequirement, DEFAULT_ROLE_PERMISSIONS, ROLES, type AppRoute, type RoleName } from '@sceau/contracts';
import { expect, test } from '@playwright/test';
import { signIn } from './support.ts';

const MESSAGES = { role: 'Rôle insuffisant', permission: 'Accès non autorisé', section: 'Accès à cette section non autorisé' } as const;

// Every staff route of the spec's table, opened by every demo role: either the page, or the
// guard's message and the dashboard. The expectation comes from the shared catalogue, the
// behaviour from the real app in a real browser.
const staffRoutes = (APP_ROUTES as readonly AppRoute[]).filter((r) => r.access === 'auth' && r.requirement);

for (const role of ROLES) {
  test(`${role}: each staff route shows its page or the right refusal`, async ({ page }) => {
    await signIn(page, `${role}@sceau.example`);
    const grants = { roles: [role], permissions: DEFAULT_ROLE_PERMISSIONS[role as RoleName] };
    const me = await page.evaluate(async () => {
      const token = sessionStorage.getItem('token');
      const res = await fetch('/api/me', { headers: { authorization: `Bearer ${token}` } });
      return (await res.json()).data.data.permissions as string[];
    });
    expect(me).toEqual([...grants.permissions].sort());

    for (const route of staffRoutes) {
      const path = route.path.replace(':id', '1');
      await page.goto(path);
      const failure = checkRequirement(grants, route.requirement!);
      if (failure === null) {
        await expect(page, `${role} on ${path}`).toHaveURL(new RegExp(`${path.replace(/[/]/g, '\\/')}$`));
      } else {
        await expect(page, `${role} on ${path}`).toHaveURL(/\/dashboard$/);
        await expect(page.getByRole('alert').filter({ hasText: MESSAGES[failure] }).first(), `${role} on ${path}`).toBeVisible();
      }
    }
  });
}
