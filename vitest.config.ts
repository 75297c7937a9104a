import { defineConfig } from 'vitest/config';

// One `npm test` runs every workspace's tests; each workspace keeps its own settings.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
