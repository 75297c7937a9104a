import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'vc',
    include: ['src/**/*.test.ts'],
  },
});
