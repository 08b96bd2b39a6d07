import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { testProjects, waitingSuiteWorkers } from '../../scripts/src/test-projects.js'

export default defineConfig({
  resolve: {
    // The README's examples import the package by name; run them on the source.
    alias: { '@petstore/client': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    // Suites start servers and child processes on a shared 2-core machine: deadlines are
    // generous because speed is the benchmark's business, never a test's.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: waitingSuiteWorkers,
    // The browser suite runs the client in Chromium; the size suite bundles it for browsers.
    projects: testProjects({ once: ['test/browser.test.ts', 'test/size.test.ts'] }),
  },
})
