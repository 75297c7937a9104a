import type { UserAbilities, UserView } from '@sceau/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

/** What the server lets the signed-in user do to an account (an admin on a staff account in its scope, by default). */
function abilities(overrides: Partial<UserAbilities> = {}): UserAbilities {
  return { edit: true, change_access: true, reset_password: true, send_sign_in_link: true, archive: false, ...overrides };
}

function userView(overrides: Partial<UserView> = {}): UserView {
  return {
    id: 11,
    name: 'Kabila',
    first_name: 'Jean',
    email: 'jean@example.cd',
    phone: null,
    roles: [{ id: 3, name: 'validateur' }],
    scope: { institution_id: null, centre_id: null, province_id: 2, institution_name: null, centre_name: null, province_name: 'Kinshasa-Funa' },
    verified: true,
    archived: false,
    created_at: '2026-02-01T00:00:00.000Z',
    abilities: abilities(),
    ...overrides,
  };
}

const ROLES = [
  { id: 1, name: 'root', permissions: [], grantable: false },
  { id: 2, name: 'admin', permissions: [], grantable: true },
  { id: 3, name: 'validateur', permissions: [], grantable: true },
];

function routes(list: UserView[] = [userView(), userView({ id: 12, name: 'Tshala', first_name: 'Marie', email: null, phone: '+243812345678', roles: [], verified: false })]) {
  return {
    'GET /api/users': () => jsonResponse({ data: list, meta: { current_page: 1, last_page: 1, per_page: 20, total: list.length } }),
    'GET /api/roles': () => jsonResponse({ data: ROLES }),
    'GET /api/educ-provinces': () => jsonResponse({ data: [{ id: 2, code: 'KIN-1', name: 'Kinshasa-Est', province: 'Kinshasa' }] }),
    'GET /api/countries': () => jsonResponse({ data: { data: [{ id: 1, code: 'CD', name: 'RD Congo', dial_code: '243', is_default: true }] } }),
    'GET /api/institutions/country/1': () =>
      jsonResponse({ data: [{ id: 40, code: 'E1', name: 'Lycée Bosangani', city: 'Kinshasa', country_id: 1, centre_id: 30, educ_province_id: 2 }] }),
    'GET /api/centres': () => jsonResponse({ data: [{ id: 30, code: 'C1', name: 'Centre Gombe', city: 'Kinshasa', educ_province_id: 2 }] }),
  };
}

describe('users and roles page', () => {
  it('lists the users with their contact, roles, scope and status', async () => {
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const row = await screen.findByTestId('user-row-11');
    expect(within(row).getByRole('rowheader')).toHaveTextContent('Jean Kabila');
    expect(row).toHaveTextContent('jean@example.cd');
    expect(row).toHaveTextContent('Validateur');
    expect(row).toHaveTextContent('Actif');
    await waitFor(() => expect(row).toHaveTextContent('Kinshasa-Funa'));
    const other = screen.getByTestId('user-row-12');
    expect(other).toHaveTextContent('+243812345678');
    expect(other).toHaveTextContent('Aucun rôle');
    expect(other).toHaveTextContent('Non confirmé');
  });

  it('hides selection and archiving when no account on the page may be archived (an admin holds no users.delete)', async () => {
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    await screen.findByTestId('user-row-11');
    expect(screen.queryByRole('checkbox', { name: 'Sélectionner Jean Kabila' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Archiver la sélection' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Ajouter un utilisateur' })).toBeInTheDocument();
  });

  it('archives the selected users after confirmation (root)', async () => {
    const { calls } = renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes([userView({ abilities: abilities({ archive: true }) })]),
        'DELETE /api/users': () => jsonResponse({ data: { archived: 1, message: '1 compte archivé.' } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Sélectionner Jean Kabila' }));
    await user.click(screen.getByRole('button', { name: 'Archiver la sélection' }));
    const dialog = screen.getByRole('dialog', { name: 'Archiver des comptes' });
    expect(dialog).toHaveTextContent('Archiver ce compte ?');
    await user.click(within(dialog).getByRole('button', { name: 'Archiver' }));
    expect(await screen.findByText('1 compte archivé.')).toBeInTheDocument();
    const call = calls.find((c) => c.method === 'DELETE')!;
    expect(JSON.parse(String(call.init.body))).toEqual({ users: [11] });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('creates a user with the right body', async () => {
    const created = userView({ id: 20, name: 'Mbuyi', first_name: 'Paul', email: 'paul@example.cd', phone: '+33612345678' });
    const { calls } = renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...routes(), 'POST /api/users': () => jsonResponse({ data: created }, 201) },
    });
    const user = userEvent.setup();
    await screen.findByTestId('user-row-11');
    await user.click(screen.getByRole('button', { name: 'Ajouter un utilisateur' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    expect(within(dialog).getByLabelText('Nom')).toHaveFocus();
    // Only the roles the server says are grantable are offered (root is not, here).
    expect(within(dialog).queryByLabelText('Super-administrateur')).toBeNull();
    expect(within(dialog).getByLabelText('Administrateur')).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: 'Créer le compte' }));
    expect(await within(dialog).findByText('Un téléphone ou une adresse e-mail est requis')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Nom'), 'Mbuyi');
    await user.type(within(dialog).getByLabelText('Prénom'), 'Paul');
    await user.type(within(dialog).getByLabelText('Adresse e-mail'), 'Paul@Example.cd');
    await user.selectOptions(within(dialog).getByLabelText('Pays (indicatif)'), 'FR');
    await user.type(within(dialog).getByLabelText('Téléphone'), '0612345678');
    await user.click(within(dialog).getByLabelText('Validateur'));
    await user.selectOptions(within(dialog).getByLabelText('Province éducationnelle'), '2');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Lycée Bosangani (Kinshasa)' })).toBeInTheDocument());
    await user.selectOptions(within(dialog).getByLabelText('École'), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Créer le compte' }));

    expect(await screen.findByText('Compte de Paul Mbuyi créé : un mot de passe temporaire lui a été envoyé.')).toBeInTheDocument();
    const call = calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/users')!;
    expect(JSON.parse(String(call.init.body))).toEqual({
      name: 'Mbuyi',
      first_name: 'Paul',
      email: 'paul@example.cd',
      phone: '+33612345678',
      roles: [3],
      province_id: 2,
      centre_id: 30,
      institution_id: 40,
    });
  });

  it('shows a server refusal next to its field', async () => {
    renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes(),
        'POST /api/users': () => jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { email: ['Cette adresse e-mail est déjà utilisée'] } }, 422),
      },
    });
    const user = userEvent.setup();
    await screen.findByTestId('user-row-11');
    await user.click(screen.getByRole('button', { name: 'Ajouter un utilisateur' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Nom'), 'Mbuyi');
    await user.type(within(dialog).getByLabelText('Adresse e-mail'), 'jean@example.cd');
    await user.click(within(dialog).getByRole('button', { name: 'Créer le compte' }));
    expect(await within(dialog).findByText('Cette adresse e-mail est déjà utilisée')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Adresse e-mail')).toHaveAttribute('aria-invalid', 'true');
  });

  it('searches after typing stops, and filters by role and archived state', async () => {
    const { calls } = renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const user = userEvent.setup();
    await screen.findByTestId('user-row-11');
    await user.type(screen.getByLabelText('Rechercher'), 'kab');
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/users' && c.url.searchParams.get('search') === 'kab')).toBe(true));
    expect(calls.some((c) => c.url.searchParams.get('search') === 'ka')).toBe(false);
    await user.selectOptions(screen.getByLabelText('Rôle'), 'validateur');
    await user.click(screen.getByLabelText('Afficher les comptes archivés'));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/users').at(-1)!.url.searchParams;
      expect([last.get('role'), last.get('archived'), last.get('search'), last.get('page')]).toEqual(['validateur', '1', 'kab', '1']);
    });
  });

  it('asks before resetting a password and shows the answer', async () => {
    const { calls } = renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...routes(), 'POST /api/users/11/reset': () => jsonResponse({ data: { message: 'Un mot de passe temporaire a été envoyé.', channel: 'email' } }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Réinitialiser le mot de passe de Jean Kabila' }));
    const dialog = screen.getByRole('dialog', { name: 'Réinitialiser le mot de passe' });
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Réinitialiser le mot de passe' }));
    expect(await screen.findByText('Un mot de passe temporaire a été envoyé.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/users/11/reset')).toBe(true);
  });

  it('sends a one-time sign-in link after confirmation, and shows a refusal in the dialog', async () => {
    let answer = jsonResponse({ code: 'forbidden_role', message: 'Rôle insuffisant' }, 403);
    const { calls } = renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...routes(), 'POST /api/users/11/sign-in-link': () => answer },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Envoyer un lien de connexion à Jean Kabila' }));
    const dialog = screen.getByRole('dialog', { name: 'Envoyer un lien de connexion' });
    expect(dialog).toHaveTextContent('valable 15 minutes');
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer le lien' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Rôle insuffisant');
    answer = jsonResponse({ data: { message: 'Un lien de connexion a été envoyé à Jean Kabila par e-mail.', channel: 'email' } });
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer le lien' }));
    expect(await screen.findByText('Un lien de connexion a été envoyé à Jean Kabila par e-mail.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/users/11/sign-in-link')).toHaveLength(2);
  });
});

describe('editing a user', () => {
  it('reads the user again, then saves the changes with PUT', async () => {
    const fresh = userView({ name: 'Kabila-Lunda', phone: '+243812345678' });
    const { calls } = renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes(),
        'GET /api/users/11': () => jsonResponse({ data: fresh }),
        'PUT /api/users/11': (_url, init) => jsonResponse({ data: { ...fresh, ...JSON.parse(String(init.body)) } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Modifier Jean Kabila' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'utilisateur" });
    const name = await within(dialog).findByLabelText('Nom');
    expect(name).toHaveValue('Kabila-Lunda');
    expect(within(dialog).getByLabelText('Téléphone')).toHaveValue('812345678');
    expect(within(dialog).getByLabelText('Validateur')).toBeChecked();
    await user.clear(name);
    await user.type(name, 'Kabila');
    await user.click(within(dialog).getByLabelText('Administrateur'));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Compte de Jean Kabila mis à jour.')).toBeInTheDocument();
    const call = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(call.init.body))).toEqual({
      name: 'Kabila',
      first_name: 'Jean',
      email: 'jean@example.cd',
      phone: '+243812345678',
      roles: [3, 2],
      province_id: 2,
      centre_id: null,
      institution_id: null,
    });
  });
});

describe("the actions offered on an account are its abilities (the server's policy), not the viewer's roles", () => {
  it('root has no archive action on an account whose abilities say archive: false', async () => {
    const list = [userView({ abilities: abilities({ archive: false }) }), userView({ id: 12, name: 'Tshala', first_name: 'Marie', abilities: abilities({ archive: true }) })];
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['root']) }, routes: routes(list) });
    await screen.findByTestId('user-row-11');
    expect(within(screen.getByTestId('user-row-11')).queryByRole('checkbox')).toBeNull();
    expect(within(screen.getByTestId('user-row-12')).getByRole('checkbox', { name: 'Sélectionner Marie Tshala' })).toBeInTheDocument();
  });

  it('offers no selection at all when no account on the page may be archived, even to root', async () => {
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['root']) }, routes: routes([userView()]) });
    await screen.findByTestId('user-row-11');
    expect(screen.queryByRole('checkbox', { name: 'Tout sélectionner' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Sélectionner Jean Kabila' })).toBeNull();
  });

  it('an admin may archive where the abilities say so, whatever its own permissions', async () => {
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['admin']) }, routes: routes([userView({ abilities: abilities({ archive: true }) })]) });
    expect(await screen.findByRole('checkbox', { name: 'Sélectionner Jean Kabila' })).toBeEnabled();
  });

  it('shows each of edit, reset and sign-in link only when its ability is true', async () => {
    const list = [
      userView({ abilities: abilities({ edit: false, reset_password: true, send_sign_in_link: false }) }),
      // A root account an admin may edit (the server says so): the old role check would have hidden it.
      userView({
        id: 12,
        name: 'Tshala',
        first_name: 'Marie',
        roles: [{ id: 1, name: 'root' }],
        abilities: abilities({ edit: true, reset_password: false, send_sign_in_link: true }),
      }),
    ];
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['admin']) }, routes: routes(list) });
    const jean = await screen.findByTestId('user-row-11');
    expect(within(jean).queryByRole('button', { name: 'Modifier Jean Kabila' })).toBeNull();
    expect(within(jean).getByRole('button', { name: 'Réinitialiser le mot de passe de Jean Kabila' })).toBeInTheDocument();
    expect(within(jean).queryByRole('button', { name: 'Envoyer un lien de connexion à Jean Kabila' })).toBeNull();
    const marie = screen.getByTestId('user-row-12');
    expect(within(marie).getByRole('button', { name: 'Modifier Marie Tshala' })).toBeInTheDocument();
    expect(within(marie).queryByRole('button', { name: 'Réinitialiser le mot de passe de Marie Tshala' })).toBeNull();
    expect(within(marie).getByRole('button', { name: 'Envoyer un lien de connexion à Marie Tshala' })).toBeInTheDocument();
  });

  it('shows a role the server says is not grantable checked and fixed on an account that holds it', async () => {
    const holder = userView({ id: 12, name: 'Tshala', first_name: 'Marie', roles: [{ id: 1, name: 'root' }], abilities: abilities({ edit: true, change_access: true }) });
    renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...routes([holder]), 'GET /api/users/12': () => jsonResponse({ data: holder }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Modifier Marie Tshala' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'utilisateur" });
    const root = await within(dialog).findByLabelText('Super-administrateur');
    expect(root).toBeChecked();
    expect(root).toBeDisabled();
    expect(within(dialog).getByLabelText('Administrateur')).toBeEnabled();
  });

  it('shows roles and scope disabled and does not send them when change_access is false (one’s own account)', async () => {
    const own = userView({ abilities: abilities({ change_access: false, reset_password: false, send_sign_in_link: false }) });
    const { calls } = renderApp({
      path: '/role-access',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes([own]),
        'GET /api/users/11': () => jsonResponse({ data: own }),
        'PUT /api/users/11': (_url, init) => jsonResponse({ data: { ...own, ...JSON.parse(String(init.body)) } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Modifier Jean Kabila' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'utilisateur" });
    const name = await within(dialog).findByLabelText('Nom');
    expect(within(dialog).getByTestId('user-access-locked')).toHaveTextContent('ne peuvent pas être modifiés');
    expect(within(dialog).getByLabelText('Validateur')).toBeDisabled();
    expect(within(dialog).getByLabelText('Administrateur')).toBeDisabled();
    expect(within(dialog).getByLabelText('Province éducationnelle')).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Kabila-Lunda');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Compte de Jean Kabila-Lunda mis à jour.')).toBeInTheDocument();
    const call = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(call.init.body))).toEqual({ name: 'Kabila-Lunda', first_name: 'Jean', email: 'jean@example.cd', phone: null });
  });
});
