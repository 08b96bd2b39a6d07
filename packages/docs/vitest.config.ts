import { defineConfig } from 'vitest/config'
import { waitingSuiteWorkers } from '../../scripts/src/test-projects.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/chromium.ts'],
    // The browser and sample suites start Chromium, servers and tsc: slow on a shared 2-core box.
    testTimeout: 60_000,
    maxWorkers: waitingSuiteWorkers,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 15_000 } },
  },
})
