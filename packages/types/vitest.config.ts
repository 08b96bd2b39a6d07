import { defineConfig } from 'vitest/config'
import { testProjects, waitingSuiteWorkers } from '../../scripts/src/test-projects.js'

export default defineConfig({
  test: { maxWorkers: waitingSuiteWorkers, projects: testProjects({ once: [] }) },
})
