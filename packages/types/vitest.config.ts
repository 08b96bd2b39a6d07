import { defineConfig } from 'vitest/config'
import { testProjects } from '../../scripts/src/test-projects.js'

export default defineConfig({
  test: { projects: testProjects({ once: [] }) },
})
