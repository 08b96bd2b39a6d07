/**
 * How a package's suites split for CI. `node` holds the suites whose outcome can depend on the
 * Node version (HTTP parsing, fetch, native modules, the stores' drivers) and runs on every Node
 * CI tests; `once` holds those that cannot (a browser, Prometheus) and runs on one.
 * `vitest run` runs both (the README's `pnpm test`); `vitest run --project node` or `once` runs
 * one (the packages' `test:node` and `test:once` scripts, the legs of `.ci/run`).
 *
 * @example
 * ```ts
 * export default defineConfig({
 *   test: { testTimeout: 30_000, projects: testProjects({ once: ['test/browser.test.ts'] }) },
 * })
 * ```
 */
import { availableParallelism } from 'node:os'
import { configDefaults, type TestProjectInlineConfiguration } from 'vitest/config'

/**
 * Test files run at once (vitest's `maxWorkers`). Vitest's default, one fewer than the cores, is a
 * single file at a time on a 2-core machine; these suites spend most of their time waiting on
 * sockets, child processes, a browser and the stores, so three files at once keep two cores busy.
 * The bench's suites keep the default: they measure.
 */
export const waitingSuiteWorkers = Math.max(3, availableParallelism() - 1)

export interface TestSplit {
  /** Suites (globs under the package) that do not depend on the Node version. */
  once: readonly string[]
}

const suites = 'test/**/*.test.ts'

/**
 * The two projects. Type tests (`*.test-d.ts`) are in neither: `pnpm typecheck` (tsc over
 * `test/`, part of `pnpm test`) checks them once, and a second compiler pass of the same project
 * here would only repeat it.
 */
export function testProjects(split: TestSplit): TestProjectInlineConfiguration[] {
  return [
    {
      extends: true,
      test: {
        name: 'node',
        include: [suites],
        exclude: [...configDefaults.exclude, ...split.once],
      },
    },
    { extends: true, test: { name: 'once', include: [...split.once] } },
  ]
}
