import { defineConfig } from 'vitest/config'
import { waitingSuiteWorkers } from './src/test-projects.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    maxWorkers: waitingSuiteWorkers,
  },
})
