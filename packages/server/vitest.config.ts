import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites start servers and child processes on a shared 2-core machine: deadlines are
    // generous because speed is the benchmark's business, never a test's.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
})
