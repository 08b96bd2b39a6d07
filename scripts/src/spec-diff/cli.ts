/**
 * `pnpm spec:diff`: what an edit of the spec changes for clients of the last release.
 *
 *   tsx scripts/src/spec-diff/cli.ts [--base <file>] [--head <file>] [--json] [--fail-on-breaking]
 *
 * Exits 0 with the report whatever it finds, 1 with `--fail-on-breaking` when a change is
 * breaking, 2 when a spec cannot be read.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { workspaceRoot } from '../workspace.js'
import { CURRENT_SPEC, RELEASED_SPEC } from './paths.js'
import { countOf, jsonReport, textReport } from './report.js'
import { diffFiles } from './run.js'

function main(): number {
  const { values } = parseArgs({
    options: {
      base: { type: 'string', default: resolve(workspaceRoot, RELEASED_SPEC) },
      head: { type: 'string', default: resolve(workspaceRoot, CURRENT_SPEC) },
      json: { type: 'boolean', default: false },
      'fail-on-breaking': { type: 'boolean', default: false },
    },
  })
  const result = diffFiles(values.base, values.head)
  process.stdout.write(values.json ? jsonReport(result) : textReport(result))
  return values['fail-on-breaking'] && countOf(result.changes, 'breaking') > 0 ? 1 : 0
}

try {
  process.exitCode = main()
} catch (error) {
  process.stderr.write(`spec:diff: ${(error as Error).message}\n`)
  process.exitCode = 2
}
