import { defineConfig } from 'vitest/config'
import { testProjects, waitingSuiteWorkers } from '../../scripts/src/test-projects.js'

export default defineConfig({
  test: {
    maxWorkers: waitingSuiteWorkers,
    // The spec's examples against its schemas: ajv over JSON, the same on every Node.
    projects: testProjects({ once: ['test/spec.test.ts'] }),
  },
})
