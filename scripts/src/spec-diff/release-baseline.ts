/**
 * Moves the baseline to the spec being released: `pnpm version-packages` runs this right after
 * `changeset version`, so the version commit of each release also records the spec its
 * packages were built from, and `spec:diff` then compares later edits against it.
 */
import { copyFileSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { workspaceRoot } from '../workspace.js'
import { CURRENT_SPEC, RELEASED_SPEC } from './paths.js'

export function refreshBaseline(root = workspaceRoot): void {
  const target = resolve(root, RELEASED_SPEC)
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(resolve(root, CURRENT_SPEC), target)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  refreshBaseline()
  process.stdout.write(`spec:diff baseline: ${CURRENT_SPEC} copied to ${RELEASED_SPEC}\n`)
}
