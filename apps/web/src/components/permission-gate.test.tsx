import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Can } from '@/components/permission-gate';
import { DEFAULT_CONFIG } from '@/lib/config';
import { createHttpClient } from '@/lib/http';
import { createSessionStore } from '@/lib/session';
import { SessionProvider } from '@/lib/session-context';
import { readToken } from '@/lib/storage';
import { makeProfile } from '@/test/fixtures';
import type { RoleName } from '@sceau/contracts';

function renderAs(roles: RoleName[], ui: React.ReactNode) {
  sessionStorage.setItem('token', 't');
  localStorage.setItem('profile', JSON.stringify(makeProfile(roles)));
  const http = createHttpClient({ fetch, getLocale: () => 'fr', getToken: readToken, translate: (k) => k, baseUrl: '/api' });
  render(<SessionProvider store={createSessionStore({ http, config: DEFAULT_CONFIG })}>{ui}</SessionProvider>);
}

describe('PermissionGate', () => {
  const ui = (
    <>
      <Can permission="validation.photo">
        <span>photo</span>
      </Can>
      <Can anyPermission={['users.delete', 'generation.view']}>
        <span>any</span>
      </Can>
      <Can allPermissions={['users.list', 'users.delete']}>
        <span>all</span>
      </Can>
      <Can anyRole={['root', 'admin']}>
        <span>admin-role</span>
      </Can>
      <Can section="users" fallback={<span>no-users</span>}>
        <span>users</span>
      </Can>
    </>
  );

  it('shows what a validateur may see', () => {
    renderAs(['validateur'], ui);
    expect(screen.getByText('photo')).toBeInTheDocument();
    expect(screen.getByText('any')).toBeInTheDocument();
    expect(screen.queryByText('all')).toBeNull();
    expect(screen.queryByText('admin-role')).toBeNull();
    expect(screen.getByText('no-users')).toBeInTheDocument();
  });

  it('shows what root may see', () => {
    renderAs(['root'], ui);
    for (const text of ['photo', 'any', 'all', 'admin-role', 'users']) expect(screen.getByText(text)).toBeInTheDocument();
  });
});
