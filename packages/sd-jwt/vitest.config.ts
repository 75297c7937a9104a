import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sd-jwt',
    include: ['src/**/*.test.ts'],
  },
});
