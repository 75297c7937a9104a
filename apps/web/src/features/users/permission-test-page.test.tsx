import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

describe('permission test page', () => {
  it("lists the user's roles, grouped permissions and every check", async () => {
    renderApp({ path: '/permission-test', signedIn: { profile: makeProfile(['admin']) } });
    await screen.findByRole('heading', { level: 1, name: 'Test des permissions' });

    const groups = screen.getByRole('heading', { name: 'Permissions par domaine' }).parentElement!;
    expect(
      within(groups)
        .getAllByRole('term')
        .map((dt) => dt.textContent),
    ).toEqual(['diplomas', 'generation', 'reference', 'signatures', 'users', 'validation']);

    const perms = screen.getByRole('table', { name: 'Permission détenue' });
    // A header row and one per permission of the catalogue (reference.manage since ADR 0139).
    expect(within(perms).getAllByRole('row')).toHaveLength(21);
    expect(within(perms).getByRole('row', { name: /reference\.manage/ })).toHaveTextContent('Oui');
    expect(within(perms).getByRole('row', { name: /users\.create/ })).toHaveTextContent('Oui');
    expect(within(perms).getByRole('row', { name: /users\.delete/ })).toHaveTextContent('Non');

    const roles = screen.getByRole('table', { name: 'Rôle détenu' });
    expect(within(roles).getByRole('row', { name: /isAdmin/ })).toHaveTextContent('Oui');
    expect(within(roles).getByRole('row', { name: /^root/ })).toHaveTextContent('Non');

    const sections = screen.getByRole('table', { name: 'Accès aux sections' });
    expect(within(sections).getByRole('row', { name: /broadcast/ })).toHaveTextContent('Non');
    expect(within(sections).getByRole('row', { name: /signatures/ })).toHaveTextContent('Oui');
  });
});
