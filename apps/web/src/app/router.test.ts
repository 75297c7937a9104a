import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_PAGES } from '@/app/pages';
import { createAppRouter } from '@/app/router';
import { DEFAULT_CONFIG } from '@/lib/config';
import { createFlashStore } from '@/lib/flash';
import { createHttpClient } from '@/lib/http';
import { createSessionStore } from '@/lib/session';
import { mockFetch } from '@/test/fixtures';

function deps() {
  const http = createHttpClient({ fetch: mockFetch({}).fetch, getLocale: () => 'fr', getToken: () => null, translate: (key) => key, baseUrl: '/api' });
  return { session: createSessionStore({ http, config: DEFAULT_CONFIG }), flash: createFlashStore(), product: DEFAULT_CONFIG.product };
}

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('createAppRouter', () => {
  it('builds the browser router without starting it; initialize() then loads the page of the address', async () => {
    window.history.replaceState(null, '', '/login?redirect=%2Fdashboard');
    const loadLogin = vi.spyOn(ROUTE_PAGES, '/login');
    const router = createAppRouter(deps());
    try {
      // Not started: main.tsx starts it in a task of its own (ADR 0151, amended).
      expect(router.state.initialized).toBe(false);
      expect(loadLogin).not.toHaveBeenCalled();
      expect(router.state.location.pathname).toBe('/login');
      const started = new Promise<void>((resolve) => {
        const stop = router.subscribe((state) => {
          if (!state.initialized) return;
          stop();
          resolve();
        });
      });
      router.initialize();
      expect(loadLogin).toHaveBeenCalledTimes(1);
      await started;
      expect(router.state.matches.at(-1)?.route.path).toBe('/login');
      expect(router.state.location.search).toBe('?redirect=%2Fdashboard');
      expect(router.state.errors).toBeNull();
      // The page's component came with its lazy chunk.
      expect(router.state.matches.at(-1)?.route.element).toBeTruthy();
    } finally {
      router.dispose();
    }
  });

  it('follows the browser history once started', async () => {
    window.history.replaceState(null, '', '/');
    const router = createAppRouter(deps()).initialize();
    try {
      await router.navigate('/verification');
      expect(window.location.pathname).toBe('/verification');
      expect(router.state.matches.at(-1)?.route.path).toBe('/verification');
    } finally {
      router.dispose();
    }
  });
});
