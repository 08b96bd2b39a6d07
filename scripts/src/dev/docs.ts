/**
 * Rebuilds the docs with their own build script (`pnpm --filter @petstore/docs build`); the
 * service reads them from disk on each request, so new docs need no restart. Incremental at the
 * level that pays: a hash of everything the build reads is kept next to the package, and a build
 * whose inputs did not change is skipped (starting `pnpm dev` on a built checkout, source edits
 * that change nothing the docs show).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { runNode, tsxLoader } from './run.js'
import type { Workspace } from './workspace.js'

export type DocsOutcome =
  | { status: 'built' | 'current'; ms: number }
  | { status: 'failed'; error: string; ms: number }

function inputsOf(ws: Workspace): string[] {
  const under = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
  return [
    join(ws.typesDir, 'dist/generated/openapi.json'),
    join(ws.typesDir, 'dist/openapi.js'),
    join(ws.docsDir, 'package.json'),
    ...under(join(ws.docsDir, 'src')),
    ...under(join(ws.docsDir, 'scripts')),
  ].sort()
}

function hashOf(files: readonly string[]): string {
  const hash = createHash('sha256')
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

export async function rebuildDocs(ws: Workspace): Promise<DocsOutcome> {
  const started = performance.now()
  const stampFile = join(ws.docsDir, 'node_modules/.cache/petstore-dev/docs-inputs.sha256')
  const inputs = hashOf(inputsOf(ws))
  const built = existsSync(join(ws.docsDir, 'dist/index.html'))
  if (built && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === inputs) {
    return { status: 'current', ms: performance.now() - started }
  }
  const result = await runNode(['--import', tsxLoader, join('scripts', 'build.ts')], {
    cwd: ws.docsDir,
  })
  const ms = performance.now() - started
  if (result.code !== 0) return { status: 'failed', error: result.output.trim(), ms }
  mkdirSync(dirname(stampFile), { recursive: true })
  writeFileSync(stampFile, inputs)
  return { status: 'built', ms }
}
