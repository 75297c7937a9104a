import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GOOGLE_SCRIPT_URL, GoogleSignIn } from '@/features/auth/google-sign-in';
import { DEFAULT_CONFIG } from '@/lib/config';
import { createHttpClient } from '@/lib/http';
import { createQueryClient } from '@/lib/query';
import { createSessionStore } from '@/lib/session';
import { SessionProvider } from '@/lib/session-context';
import { readToken } from '@/lib/storage';
import { jsonResponse, makeProfile, mockFetch } from '@/test/fixtures';
import { QueryClientProvider } from '@tanstack/react-query';

function renderButton(clientId: string | null, onSignedIn = vi.fn()) {
  const http = createHttpClient({ fetch, getLocale: () => 'fr', getToken: readToken, translate: (k) => k, baseUrl: '/api' });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionProvider store={createSessionStore({ http, config: DEFAULT_CONFIG })}>
        <GoogleSignIn clientId={clientId} onSignedIn={onSignedIn} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return onSignedIn;
}

describe('Google sign-in', () => {
  it('is absent, and loads nothing, without a client id', () => {
    renderButton(null);
    expect(screen.queryByTestId('google-button')).toBeNull();
    expect(document.querySelector(`script[src="${GOOGLE_SCRIPT_URL}"]`)).toBeNull();
  });

  it("sends Google's ID token to the API and signs in", async () => {
    let callback: ((response: { credential?: string }) => void) | undefined;
    const google = {
      accounts: {
        id: {
          initialize: vi.fn((options: { callback: typeof callback }) => {
            callback = options.callback;
          }),
          renderButton: vi.fn(),
        },
      },
    };
    vi.stubGlobal('google', google);
    const double = mockFetch({
      'POST /api/auth/byGoogle': () => jsonResponse({ access_token: 'tok-google', token_type: 'Bearer', expires_in: 60, data: makeProfile([]) }),
    });
    vi.stubGlobal('fetch', double.fetch);
    const onSignedIn = renderButton('client-123.apps.googleusercontent.com');
    await waitFor(() => expect(google.accounts.id.renderButton).toHaveBeenCalled());
    expect(google.accounts.id.initialize).toHaveBeenCalledWith(expect.objectContaining({ client_id: 'client-123.apps.googleusercontent.com' }));
    callback!({ credential: 'header.payload.signature-of-google' });
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(JSON.parse(String(double.calls[0]!.init.body))).toEqual({ id_token: 'header.payload.signature-of-google' });
    expect(sessionStorage.getItem('token')).toBe('tok-google');
  });
});
