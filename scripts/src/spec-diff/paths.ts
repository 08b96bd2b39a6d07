import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** The spec of the last release: what published clients were built against. */
export const RELEASED_SPEC = 'spec/released/openapi.yaml'
/** The spec being edited. */
export const CURRENT_SPEC = 'spec/openapi.yaml'

/** How reports name a file: relative to the repository when inside it. */
export function displayPath(file: string): string {
  const path = relative(repoRoot, resolve(file))
  return path.startsWith('..') || isAbsolute(path) ? file : path
}
