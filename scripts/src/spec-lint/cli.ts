/**
 * `pnpm lint`'s spec step (`pnpm --filter @petstore/scripts lint:spec`): Spectral and our own
 * rules (`lint.ts`) on the spec, one line per finding. Exits 1 on a blocking finding
 * (`blockingFindings`: the rule `pnpm dev` applies too).
 *
 *   tsx scripts/src/spec-lint/cli.ts [<copy>/openapi.yaml]
 */
import { resolve } from 'node:path'
import { CURRENT_SPEC, displayPath } from '../spec-diff/paths.js'
import { workspaceRoot } from '../workspace.js'
import { blockingFindings, countFindings, formatFindings } from './finding.js'
import { lintSpec, SPECTRAL_RULESET } from './lint.js'

const spec = resolve(process.argv[2] ?? resolve(workspaceRoot, CURRENT_SPEC))
try {
  const findings = await lintSpec({ spec, ruleset: resolve(workspaceRoot, SPECTRAL_RULESET) })
  const where = `${displayPath(spec)} (Spectral with ${SPECTRAL_RULESET}, and our rules: plain YAML, header sets, examples, the support table)`
  if (findings.length === 0) {
    process.stdout.write(`spec lint: no finding in ${where}\n`)
  } else {
    const lines = formatFindings(findings, '  ')
    process.stdout.write(`spec lint: ${countFindings(findings)} in ${where}\n${lines}\n`)
    if (blockingFindings(findings).length > 0) process.exitCode = 1
  }
} catch (error) {
  process.stderr.write(`spec lint: ${(error as Error).message}\n`)
  process.exitCode = 2
}
