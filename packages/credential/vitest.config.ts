import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'credential',
    include: ['src/**/*.test.ts'],
  },
});
