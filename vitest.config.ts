import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Examples import the package by name; in this checkout that is its own source.
  resolve: { alias: { treebench: new URL('./index.ts', import.meta.url).pathname } },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores on the CI machine: keep worker count small so timing-sensitive runner tests stay stable.
    maxWorkers: 2,
  },
});
