import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@/features/audit/audit-log-page';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const entries: AuditEntry[] = [
  {
    id: 2,
    at: '2026-03-02T10:30:00.000Z',
    actor_id: 1,
    actor: 'Aline Mukendi <aline@example.cd>',
    action: 'user.created',
    subject_type: 'user',
    subject_id: '11',
    ip: '10.0.0.7',
    user_agent: 'Firefox',
    details: { roles: ['validateur'] },
  },
  {
    id: 1,
    at: '2026-03-01T08:00:00.000Z',
    actor_id: null,
    actor: null,
    action: 'user.teleported',
    subject_type: null,
    subject_id: null,
    ip: null,
    user_agent: null,
    details: null,
  },
];

function routes() {
  return {
    'GET /api/audit-log': () => jsonResponse({ data: entries, meta: { current_page: 1, last_page: 3, per_page: 25, total: 60 } }),
    'GET /api/users': () =>
      jsonResponse({
        data: [
          {
            id: 1,
            name: 'Mukendi',
            first_name: 'Aline',
            email: 'aline@example.cd',
            phone: null,
            roles: [],
            scope: { institution_id: null, centre_id: null, province_id: null },
            verified: true,
            archived: false,
            created_at: '',
          },
        ],
        meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 },
      }),
  };
}

describe('audit log page', () => {
  it('is for root only', async () => {
    const { router } = renderApp({ path: '/audit-log', signedIn: { profile: makeProfile(['admin']) } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Rôle insuffisant')).toBeInTheDocument();
  });

  it('shows translated actions, dates in the reader’s language, the IP and details on demand', async () => {
    renderApp({ path: '/audit-log', signedIn: { profile: makeProfile(['root']) }, routes: routes() });
    const row = await screen.findByTestId('audit-row-2');
    expect(within(row).getByRole('rowheader')).toHaveTextContent('Compte créé');
    expect(row).toHaveTextContent('Aline Mukendi <aline@example.cd>');
    expect(row).toHaveTextContent('10.0.0.7');
    expect(row).toHaveTextContent('2 mars 2026');
    expect(row.querySelector('details')).not.toHaveAttribute('open');
    expect(row).toHaveTextContent('"validateur"');
    const unknown = screen.getByTestId('audit-row-1');
    expect(within(unknown).getByRole('rowheader')).toHaveTextContent('user.teleported');
    expect(unknown).toHaveTextContent('Système');
  });

  it('reads English too', async () => {
    await changeLocale('en');
    renderApp({ path: '/audit-log', signedIn: { profile: makeProfile(['root']) }, routes: routes() });
    const row = await screen.findByTestId('audit-row-2');
    expect(row).toHaveTextContent('Account created');
    expect(row).toHaveTextContent('Mar 2, 2026');
  });

  it('filters by actor and action family, and pages', async () => {
    const { calls } = renderApp({ path: '/audit-log', signedIn: { profile: makeProfile(['root']) }, routes: routes() });
    const user = userEvent.setup();
    await screen.findByTestId('audit-row-2');
    await waitFor(() => expect(screen.getByRole('option', { name: /Aline Mukendi/ })).toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Auteur'), '1');
    await user.selectOptions(screen.getByLabelText("Type d'action"), 'signature');
    await user.click(screen.getByRole('button', { name: 'Suivant' }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/audit-log').at(-1)!.url.searchParams;
      expect([last.get('actor'), last.get('action'), last.get('page')]).toEqual(['1', 'signature', '2']);
    });
  });
});
