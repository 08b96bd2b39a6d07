/**
 * A spec edit, step one: lint the spec and regenerate `@petstore/types/src/generated/` with
 * `pnpm generate`'s own code. Nothing is written unless the spec is valid, so an invalid edit
 * leaves the last good generated files, and the service built from them, in place.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { renderGenerated, writeChanged } from '../generate-types.js'
import { runNode } from './run.js'
import type { Workspace } from './workspace.js'

const require = createRequire(import.meta.url)

export type Regeneration =
  | { ok: true; changed: string[]; ms: number }
  | { ok: false; error: string; ms: number }

export async function regenerate(ws: Workspace): Promise<Regeneration> {
  const started = performance.now()
  // Started first: the linter runs in its own process while the generator renders.
  const linting = lintSpec(ws)
  let rendered: Map<string, string> | undefined
  let renderError = ''
  try {
    rendered = await renderGenerated(ws.specPath)
  } catch (error) {
    renderError = errorText(error)
  }
  const lint = await linting
  const ms = () => performance.now() - started
  if (lint.code !== 0) return { ok: false, error: lint.output, ms: ms() }
  if (rendered === undefined) return { ok: false, error: renderError, ms: ms() }
  return { ok: true, changed: writeChanged(ws.generatedDir, rendered), ms: ms() }
}

/** `redocly lint`, as `pnpm lint` runs it; `output` keeps the problems and drops the banners. */
async function lintSpec(ws: Workspace): Promise<{ code: number | null; output: string }> {
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
