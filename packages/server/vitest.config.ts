import { defineConfig } from 'vitest/config'
import { testProjects, waitingSuiteWorkers } from '../../scripts/src/test-projects.js'

export default defineConfig({
  test: {
    // Suites start servers and child processes on a shared 2-core machine: deadlines are
    // generous because speed is the benchmark's business, never a test's.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: waitingSuiteWorkers,
    // Prometheus and promtool read what the service writes the same way on every Node, and
    // `pnpm start` hands the environment to it through Turbo the same way too.
    projects: testProjects({
      once: [
        'test/metrics/prometheus.test.ts',
        'test/metrics/alerts.test.ts',
        'test/start-env.test.ts',
      ],
    }),
  },
})
