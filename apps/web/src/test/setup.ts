import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { i18n } from '@/lib/i18n';

// A file's first render loads its page's lazy chunk and texts, which on a busy CI machine takes
// more than testing-library's 1 s default. These waits are for readiness, not speed (speed is
// measured by the benchmarks and the size budget), so they may wait longer.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: scrolling is a no-op the tests drive through window.scrollY.
window.scrollTo = (() => undefined) as typeof window.scrollTo;

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  await i18n.changeLanguage('fr');
  localStorage.clear();
});

afterEach(() => {
  cleanup();
});
