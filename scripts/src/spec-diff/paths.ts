import { isAbsolute, relative, resolve } from 'node:path'
import { workspaceRoot } from '../workspace.js'

/** The spec of the last release: what published clients were built against. */
export const RELEASED_SPEC = 'spec/released/openapi.yaml'
/** The spec being edited. */
export const CURRENT_SPEC = 'spec/openapi.yaml'
/** Every released spec, as `<info.version>.yaml`, beside `openapi.yaml` (the latest). */
export const RELEASED_DIR = 'spec/released'
/** The day each versioned spec in `RELEASED_DIR` was released, as `<version>: YYYY-MM-DD`. */
export const RELEASE_DATES = 'spec/released/dates.yaml'

/**
 * The file of one released version.
 * @example
 * releasedSpecOf('1.0.0') // 'spec/released/1.0.0.yaml'
 */
export const releasedSpecOf = (version: string): string => `${RELEASED_DIR}/${version}.yaml`

/** How reports name a file: relative to the repository when inside it. */
export function displayPath(file: string): string {
  const path = relative(workspaceRoot, resolve(file))
  return path.startsWith('..') || isAbsolute(path) ? file : path
}
