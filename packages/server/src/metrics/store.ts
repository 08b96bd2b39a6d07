/**
 * Times every call to the store, written once around the Store interface rather than inside each
 * implementation: each method of the store and of its parts (`pets`, `keys`, `idempotency`) is
 * observed when it answers (at once: a SQLite read) or when its promise settles, named
 * `part.method` (`pets.get`, `keys.findActiveByHash`). A `cached…` method
 * (`keys.cachedActive`) only looks in the store's memory for what a store call found before:
 * it is not a store call, and passes through untimed.
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
      if (name.startsWith('cached')) continue
      const labels = { db_system_name: system, db_operation_name: `${prefix}${name}` }
      const ok = duration.series({ ...labels, outcome: 'ok' })
      const failed = duration.series({ ...labels, outcome: 'error' })
      wrapped[name] = (...args: unknown[]) => {
        const started = performance.now()
        const seconds = () => (performance.now() - started) / 1000
        let result: unknown
        try {
          result = method.apply(target, args)
        } catch (error) {
          failed.observe(seconds())
          throw error
        }
        if (!(result instanceof Promise)) {
          ok.observe(seconds())
          return result
        }
        return result.then(
          (value) => {
            ok.observe(seconds())
            return value
          },
          (error: unknown) => {
            failed.observe(seconds())
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
