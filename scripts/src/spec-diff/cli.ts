/**
 * `pnpm spec:diff`: what an edit of the spec changes for clients of the last release, and what
 * the release check will then require (the `info.version` bump and the pending changesets).
 *
 *   tsx scripts/src/spec-diff/cli.ts [--base <file>] [--head <file>] [--changesets <dir>]
 *                                    [--json] [--fail-on-breaking]
 *
 * Exits 0 with the report whatever it finds, 1 with `--fail-on-breaking` when a change is
 * breaking, 2 when a spec cannot be read.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { workspaceRoot } from '../workspace.js'
import { CURRENT_SPEC, RELEASED_SPEC } from './paths.js'
import {
  checkRelease,
  packagesBuiltFromSpec,
  type ReleaseCheck,
  releaseLine,
} from './release-check.js'
import { countOf, jsonReport, textReport } from './report.js'
import { diffFiles } from './run.js'

function main(): number {
  const { values } = parseArgs({
    options: {
      base: { type: 'string', default: resolve(workspaceRoot, RELEASED_SPEC) },
      head: { type: 'string', default: resolve(workspaceRoot, CURRENT_SPEC) },
      changesets: { type: 'string', default: resolve(workspaceRoot, '.changeset') },
      json: { type: 'boolean', default: false },
      'fail-on-breaking': { type: 'boolean', default: false },
    },
  })
  let check: ReleaseCheck | undefined
  let cannotTell = ''
  try {
    check = checkRelease({
      baseFile: values.base,
      headFile: values.head,
      changesetDir: values.changesets,
      packages: packagesBuiltFromSpec(),
    })
  } catch (error) {
    // An unreadable spec fails the diff below as well; anything else (a version that is not
    // semver, a changeset Changesets cannot parse) still leaves the diff worth printing.
    cannotTell = (error as Error).message.replaceAll('\n', ' ')
  }
  const result = check?.diff ?? diffFiles(values.base, values.head)
  if (values.json) {
    const { diff: _, ...release } = check ?? { diff: result, error: cannotTell }
    process.stdout.write(jsonReport(result, release))
  } else {
    const release = check ? releaseLine(check) : `release: cannot tell what it needs: ${cannotTell}`
    process.stdout.write(textReport(result, release))
  }
  return values['fail-on-breaking'] && countOf(result.changes, 'breaking') > 0 ? 1 : 0
}

try {
  process.exitCode = main()
} catch (error) {
  process.stderr.write(`spec:diff: ${(error as Error).message}\n`)
  process.exitCode = 2
}
