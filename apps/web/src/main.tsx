import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { appConfig } from '@/lib/config';
import { createFlashStore } from '@/lib/flash';
import { http } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query';
import { createSessionStore } from '@/lib/session';
import '@/styles/app.css';

const session = createSessionStore({ http, config: appConfig });
const flash = createFlashStore();
const queryClient = createQueryClient();
const router = createAppRouter({ session, flash, product: appConfig.product });

// A page load re-reads the profile from the server (the cached copy renders meanwhile); a token
// the server no longer accepts ends the session, and the guards run again.
if (session.getSnapshot().token) {
  session.refreshProfile().then(
    (profile) => {
      if (!profile) void router.revalidate();
    },
    () => undefined,
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// What the root holds (the app shell, or the verdict the server wrote, ADR 0128) stays
// until the first page's code and guard are ready: React then replaces it in one step, with no
// loading screen flashing in between.
const firstPage = router.state.initialized
  ? Promise.resolve()
  : new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });

void firstPage.then(() =>
  createRoot(container).render(
    <StrictMode>
      <Providers services={{ session, flash, queryClient, i18n }}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
