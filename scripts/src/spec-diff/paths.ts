import { isAbsolute, relative, resolve } from 'node:path'
import { workspaceRoot } from '../workspace.js'

/** The spec of the last release: what published clients were built against. */
export const RELEASED_SPEC = 'spec/released/openapi.yaml'
/** The spec being edited. */
export const CURRENT_SPEC = 'spec/openapi.yaml'

/** How reports name a file: relative to the repository when inside it. */
export function displayPath(file: string): string {
  const path = relative(workspaceRoot, resolve(file))
  return path.startsWith('..') || isAbsolute(path) ? file : path
}
