import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'process',
    include: ['src/**/*.test.ts'],
  },
});
