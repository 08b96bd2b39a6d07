/**
 * A spec edit, step one: lint the spec (`redocly lint`, then the spec lint of `pnpm lint`:
 * Spectral and our own rules) and regenerate `@petstore/types/src/generated/` with
 * `pnpm generate`'s own code. Nothing is written unless the spec is valid and has no finding that
 * fails `pnpm lint` (`blockingFindings`), so such an edit leaves the last good generated files,
 * and the service built from them, in place; other findings are handed back to be printed.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { renderGenerated, writeChanged } from '../generate-types.js'
import {
  blockingFindings,
  countFindings,
  type Finding,
  formatFindings,
} from '../spec-lint/finding.js'
import { lintSpec, SPECTRAL_RULESET } from '../spec-lint/lint.js'
import { runNode } from './run.js'
import type { Workspace } from './workspace.js'

const require = createRequire(import.meta.url)

export type Regeneration =
  | { ok: true; changed: string[]; notes: Finding[]; ms: number }
  | { ok: false; why: string; error: string; ms: number }

export async function regenerate(ws: Workspace): Promise<Regeneration> {
  const started = performance.now()
  // Started first: redocly runs in its own process, and Spectral in turns with the generator.
  const linting = redoclyLint(ws)
  const specLinting = lintSpec({ spec: ws.specPath, ruleset: join(ws.root, SPECTRAL_RULESET) })
  // Awaited below once the spec is known to be valid; an invalid one has its report already.
  specLinting.catch(() => {})
  let rendered: Map<string, string> | undefined
  let renderError = ''
  try {
    rendered = await renderGenerated(ws.specPath)
  } catch (error) {
    renderError = errorText(error)
  }
  const lint = await linting
  const ms = () => performance.now() - started
  const invalid = (error: string) => ({ ok: false as const, why: 'spec invalid', error, ms: ms() })
  if (lint.code !== 0) return invalid(lint.output)
  if (rendered === undefined) return invalid(renderError)
  let findings: Finding[]
  try {
    findings = await specLinting
  } catch (error) {
    return { ok: false, why: 'spec lint failed', error: errorText(error), ms: ms() }
  }
  if (blockingFindings(findings).length > 0) {
    const why = `spec breaks lint rules (${countFindings(findings)})`
    return { ok: false, why, error: formatFindings(findings), ms: ms() }
  }
  const changed = writeChanged(ws.generatedDir, rendered)
  return { ok: true, changed, notes: findings, ms: ms() }
}

/** `redocly lint`, as `pnpm lint` runs it; `output` keeps the problems and drops the banners. */
async function redoclyLint(ws: Workspace): Promise<{ code: number | null; output: string }> {
  const cli = require.resolve('@redocly/cli/bin/cli.js')
  const config = join(ws.specDir, 'redocly.yaml')
  const result = await runNode([cli, 'lint', ws.specPath, '--config', config, '--format=stylish'], {
    cwd: ws.specDir,
  })
  return { code: result.code, output: withoutBanners(result.output) }
}

/** Redocly frames notices (Node deprecation, updates) in box-drawing characters. */
function withoutBanners(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/[╔║╚]/.test(line) && line.trim() !== '')
    .join('\n')
}

function errorText(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr
  if (stderr !== undefined && stderr.length > 0) return withoutBanners(stderr.toString())
  return error instanceof Error ? error.message : String(error)
}
