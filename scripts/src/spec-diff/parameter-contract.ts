/** What a parameter promises beyond its values: its default, and its name in the path. */
import { breaking, type Change, nonBreaking } from './change.js'
import { isObject } from './load.js'
import type { Operation } from './model.js'
import { same } from './schemas.js'

/**
 * A client that omits an optional parameter gets its `default`: changing or dropping it changes
 * what that request does. Declaring one where there was none only documents a behaviour.
 */
export function compareParameterDefault(base: unknown, head: unknown, location: string): Change[] {
  const before = isObject(base) ? base.default : undefined
  const after = isObject(head) ? head.default : undefined
  if (same(before, after)) return []
  const show = (value: unknown) => JSON.stringify(value)
  if (before === undefined) {
    return [nonBreaking('parameter-default-added', location, `default ${show(after)} declared`)]
  }
  if (after === undefined) {
    return [
      breaking(
        'parameter-default-removed',
        location,
        `default ${show(before)} removed: clients that omit it no longer know what they get`,
      ),
    ]
  }
  return [
    breaking(
      'parameter-default-changed',
      location,
      `default ${show(before)} -> ${show(after)}: clients that omit it get a different result`,
    ),
  ]
}

const pathOf = (operation: Operation) => operation.label.slice(operation.label.indexOf(' ') + 1)
const templateNames = (path: string) => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] ?? '')

/**
 * Path parameters by position (`/pets/{id}` -> `/pets/{petId}`), `path:id` to `path:petId`: a
 * client fills the path by position, so the name is no part of the contract.
 */
export function pathParameterRenames(base: Operation, head: Operation): Map<string, string> {
  const after = templateNames(pathOf(head))
  return new Map(
    templateNames(pathOf(base)).flatMap((name, i) =>
      after[i] !== undefined && after[i] !== name ? [[`path:${name}`, `path:${after[i]}`]] : [],
    ),
  )
}
