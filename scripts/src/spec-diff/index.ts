/**
 * The `spec:diff` engine for other workspace packages (`@petstore/scripts/spec-diff`): the docs
 * build turns the released specs into a changelog with it. Nothing here adds behaviour.
 */
export type { Change } from './change.js'
export { type DiffOptions, diffSpecs } from './diff.js'
export { isObject, type Json, type LoadedSpec, loadSpec } from './load.js'
export { type Operation, operationsOf } from './model.js'
export {
  CURRENT_SPEC,
  RELEASE_DATES,
  RELEASED_DIR,
  RELEASED_SPEC,
  releasedSpecOf,
} from './paths.js'
export { readReleaseDates } from './release-baseline.js'
export { versionBump } from './spec-version.js'
