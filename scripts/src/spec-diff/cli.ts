/**
 * `pnpm spec:diff`: what an edit of the spec changes for clients of the last release, and what
 * the release check will then require (the `info.version` bump and the pending changesets).
 *
 *   tsx scripts/src/spec-diff/cli.ts [--base <file>] [--head <file>] [--changesets <dir>]
 *                                    [--format text|json|markdown|github] [--json]
 *                                    [--fail-on-breaking] [--check-release]
 *
 * `--json` is `--format json`; `markdown` is for a pull request comment, `github` prints one
 * workflow annotation per change on the edited spec's line.
 * Exits 0 with the report whatever it finds, 1 with `--fail-on-breaking` when a change is
 * breaking, 1 with `--check-release` when the release check fails (a breaking change without a
 * major changeset, an addition without a minor one, `info.version` not moved as far: each
 * problem on stderr), 2 when a spec cannot be read.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { workspaceRoot } from '../workspace.js'
import { CURRENT_SPEC, RELEASED_SPEC } from './paths.js'
import {
  checkRelease,
  describeCheck,
  packagesBuiltFromSpec,
  type ReleaseCheck,
  releaseLine,
} from './release-check.js'
import { countOf, type DiffResult, jsonReport, textReport } from './report.js'
import { githubReport, markdownReport } from './report-formats.js'
import { diffFiles } from './run.js'
import { sourceLines } from './source-lines.js'

function main(): number {
  const { values } = parseArgs({
    options: {
      base: { type: 'string', default: resolve(workspaceRoot, RELEASED_SPEC) },
      head: { type: 'string', default: resolve(workspaceRoot, CURRENT_SPEC) },
      changesets: { type: 'string', default: resolve(workspaceRoot, '.changeset') },
      json: { type: 'boolean', default: false },
      format: { type: 'string', default: 'text' },
      'fail-on-breaking': { type: 'boolean', default: false },
      'check-release': { type: 'boolean', default: false },
    },
  })
  const format = values.json ? 'json' : values.format
  if (!FORMATS.includes(format)) {
    throw new Error(`--format ${format}: expected one of ${FORMATS.join(', ')}`)
  }
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
  if (format === 'json') {
    const { diff: _, ...release } = check ?? { diff: result, error: cannotTell }
    process.stdout.write(jsonReport(result, release))
  } else {
    const release = check ? releaseLine(check) : `release: cannot tell what it needs: ${cannotTell}`
    process.stdout.write(render(format, result, release, values.head))
  }
  if (values['check-release'] && check?.ok !== true) {
    process.stderr.write(
      `${check ? describeCheck(check) : `release check failed: cannot tell what it needs: ${cannotTell}`}\n`,
    )
    return 1
  }
  return values['fail-on-breaking'] && countOf(result.changes, 'breaking') > 0 ? 1 : 0
}

const FORMATS = ['text', 'json', 'markdown', 'github']

function render(format: string, result: DiffResult, release: string, headFile: string): string {
  if (format === 'markdown') return markdownReport(result, release)
  if (format === 'github') {
    return githubReport(result, result.head.file, sourceLines(readFileSync(headFile, 'utf8')))
  }
  return textReport(result, release)
}

try {
  process.exitCode = main()
} catch (error) {
  process.stderr.write(`spec:diff: ${(error as Error).message}\n`)
  process.exitCode = 2
}
