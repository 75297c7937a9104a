// First: before any schema is built (see the module).
import '@/lib/zod-setup';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { appConfig } from '@/lib/config';
import { createFlashStore } from '@/lib/flash';
import { http } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { nextTask } from '@/lib/next-task';
import { createQueryClient } from '@/lib/query';
import { createSessionStore } from '@/lib/session';
import '@/styles/app.css';

// The start in short tasks (ADR 0151, amended): the modules' evaluation, then the stores, then the
// router's creation, then its start (which matches the page and starts loading its chunk).
await nextTask();
const session = createSessionStore({ http, config: appConfig });
const flash = createFlashStore();
const queryClient = createQueryClient();
await nextTask();
const router = createAppRouter({ session, flash, product: appConfig.product });
await nextTask();
router.initialize();

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

/**
 * The app's stylesheet, preloaded by index.html without holding back the first paint (ADR 0131),
 * applied before React renders its first page. None to apply where the server wrote it inline
 * (the verdict's page) or in development (Vite injects it).
 */
function applyStylesheet(): Promise<void> {
  const preload = document.querySelector<HTMLLinkElement>('link[rel="preload"][as="style"][data-app-style]');
  if (!preload) return Promise.resolve();
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.crossOrigin = preload.crossOrigin;
  sheet.href = preload.href;
  return new Promise((resolve) => {
    sheet.addEventListener('load', () => resolve(), { once: true });
    // A stylesheet that failed still lets the app start (unstyled rather than blank).
    sheet.addEventListener('error', () => resolve(), { once: true });
    preload.after(sheet);
  });
}

// Rendered as a transition (ADR 0151): React works in slices, yielding to the browser between
// them, so a slow phone stays responsive while the page the server wrote is shown; the commit
// replaces it in one step as before.
void Promise.all([firstPage, applyStylesheet()]).then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers services={{ session, flash, queryClient, i18n }}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    ),
  );
});
