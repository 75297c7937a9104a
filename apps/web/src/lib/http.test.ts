import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createHttpClient, fileNameOf, http } from '@/lib/http';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse } from '@/test/fixtures';

function lastRequest(fetchMock: ReturnType<typeof vi.fn>) {
  const [url, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
  return { url, init, headers: new Headers(init.headers) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('http client', () => {
  it('sends the XMLHttpRequest marker, JSON accept, and the current locale', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ data: [] }));
    vi.stubGlobal('fetch', fetchMock);

    await http.get('/options');
    let { url, headers } = lastRequest(fetchMock);
    expect(url).toBe('/api/options');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('X-Locale')).toBe('fr');
    expect(headers.get('Accept-Language')).toBe('fr');
    expect(headers.get('Authorization')).toBeNull();
    expect(headers.get('Content-Type')).toBeNull();

    await changeLocale('en');
    await http.post('/things', { a: 1 });
    ({ headers } = lastRequest(fetchMock));
    expect(headers.get('X-Locale')).toBe('en');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(lastRequest(fetchMock).init.body).toBe('{"a":1}');
  });

  it('sends the bearer token, read from sessionStorage before localStorage', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);

    localStorage.setItem('token', 'local-token');
    await http.get('/me');
    expect(lastRequest(fetchMock).headers.get('Authorization')).toBe('Bearer local-token');

    sessionStorage.setItem('token', 'session-token');
    await http.get('/me');
    expect(lastRequest(fetchMock).headers.get('Authorization')).toBe('Bearer session-token');

    await http.post('/oauth/token', {}, { anonymous: true });
    expect(lastRequest(fetchMock).headers.get('Authorization')).toBeNull();
  });

  it('turns a network failure into "Connection error", in the current language', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(http.get('/me')).rejects.toMatchObject({ code: 'network_error', status: 0, message: 'Erreur de connexion', messageKey: 'web:errors.network' });
    await changeLocale('en');
    await expect(http.get('/me')).rejects.toMatchObject({ message: 'Connection error' });
  });

  it("keeps the server's translated message and field errors", async () => {
    const body = { code: 'validation_failed', message: 'Données invalides', errors: { username: ['Ce champ est requis'] } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(body, 422)),
    );
    const error = await http.post('/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', message: 'Données invalides', messageKey: null });
    expect((error as ApiError).fieldErrors).toEqual({ username: ['Ce champ est requis'] });
  });

  it('falls back to the generic message when the answer is not an API error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    await changeLocale('en');
    await expect(http.get('/me')).rejects.toMatchObject({
      status: 502,
      code: 'unknown_error',
      message: 'An error occurred, please try again',
    });
  });

  it('uses the translated "Invalid data" when a 422 comes without a message', async () => {
    const client = createHttpClient({
      fetch: async () => jsonResponse({ code: 'validation_failed', message: '' }, 422),
      getLocale: () => 'fr',
      getToken: () => null,
      translate: (key) => `t:${key}`,
      baseUrl: '/api',
    });
    await expect(client.get('/x')).rejects.toMatchObject({ message: 't:web:errors.invalidData', messageKey: 'web:errors.invalidData' });
  });

  it('builds query strings without empty values', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);
    await http.get('/users', { query: { page: 2, search: '', role: undefined } });
    expect(lastRequest(fetchMock).url).toBe('/api/users?page=2');
  });
});

describe('downloads', () => {
  it('reads the file name of Content-Disposition, preferring the UTF-8 form, never a path', () => {
    expect(fileNameOf('attachment; filename="diplome-12345678901234.pdf"')).toBe('diplome-12345678901234.pdf');
    expect(fileNameOf('attachment; filename="a.pdf"; filename*=UTF-8\'\'dipl%C3%B4me%20%C3%A9.pdf')).toBe('diplôme é.pdf');
    expect(fileNameOf('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });

  it('downloads a file with the bearer token and gives its name; a refusal is an ApiError', async () => {
    sessionStorage.setItem('token', 'session-token');
    const fetchMock = vi.fn(
      async () => new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="diplome-1.pdf"' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { blob, fileName } = await http.download('/items/5');
    expect(lastRequest(fetchMock).url).toBe('/api/items/5');
    expect(lastRequest(fetchMock).headers.get('Authorization')).toBe('Bearer session-token');
    expect(await blob.text()).toBe('%PDF-1.7');
    expect(fileName).toBe('diplome-1.pdf');

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ code: 'not_found', message: 'Introuvable' }, 404)),
    );
    await expect(http.download('/items/6')).rejects.toMatchObject({ status: 404, message: 'Introuvable' });
  });
});
