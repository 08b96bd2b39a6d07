/**
 * Times every call to the store, written once around the Store interface rather than inside each
 * implementation: each method of the store and of its parts (`pets`, `keys`, `idempotency`)
 * that returns a promise is observed when it settles, named `part.method` (`pets.get`,
 * `keys.findActiveByHash`). A method that answers at once (`keys.cachedActive`) is a memory
 * lookup, not a store call, and passes through untimed.
 */
import { performance } from 'node:perf_hooks'
import type { Store } from '../store/store.js'
import type { Instruments } from './instruments.js'

type Methods = Record<string, unknown>

/**
 * `store` with each call timed into `duration`; closing it is closing `store`.
 *
 * @example
 * ```ts
 * const timed = timeStore(store, instruments.storeDuration, 'sqlite')
 * await timed.pets.get(1) // observed as db_operation_name="pets.get"
 * ```
 */
export function timeStore(
  store: Store,
  duration: Instruments['storeDuration'],
  system: 'sqlite' | 'postgresql',
): Store {
  const wrap = <T extends object>(target: T, prefix: string): T => {
    const wrapped: Methods = Object.create(target)
    for (const name of methodNames(target)) {
      const method = (target as Methods)[name] as (...args: unknown[]) => unknown
      if (typeof method !== 'function' || name === 'constructor' || name === 'close') continue
      const labels = { db_system_name: system, db_operation_name: `${prefix}${name}` }
      const ok = duration.series({ ...labels, outcome: 'ok' })
      const failed = duration.series({ ...labels, outcome: 'error' })
      wrapped[name] = (...args: unknown[]) => {
        const started = performance.now()
        const result = method.apply(target, args)
        if (!(result instanceof Promise)) return result
        return result.then(
          (value) => {
            ok.observe((performance.now() - started) / 1000)
            return value
          },
          (error: unknown) => {
            failed.observe((performance.now() - started) / 1000)
            throw error
          },
        )
      }
    }
    return wrapped as T
  }
  const timed = wrap(store, '') as Store & Methods
  for (const [part, value] of Object.entries(store)) {
    if (typeof value === 'object' && value !== null) timed[part] = wrap(value, `${part}.`)
  }
  return timed
}

/** Own and inherited method names of a store object (class instances keep theirs on prototypes). */
function methodNames(target: object): Set<string> {
  const names = new Set<string>()
  for (
    let layer: object | null = target;
    layer !== null && layer !== Object.prototype;
    layer = Object.getPrototypeOf(layer)
  ) {
    for (const name of Object.getOwnPropertyNames(layer)) names.add(name)
  }
  return names
}
