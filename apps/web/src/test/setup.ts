import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { i18n } from '@/lib/i18n';

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
