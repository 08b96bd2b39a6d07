/**
 * SQLite's failures that mean the store cannot serve now, not a bug of the request: the file is
 * locked beyond the busy timeout, the disk is full, an I/O error, the file cannot be opened or
 * written, or it was deleted or replaced (file-guard.ts). They become BackendUnavailableError
 * here, so no other module reads SQLite's codes; a constraint or a bad statement stays what it
 * is (a 500).
 * @see https://www.sqlite.org/rescode.html
 */
import { type Condition, wrapUnavailable } from '../../backend-failure.js'

/** By primary result code; extended codes (`SQLITE_IOERR_WRITE`) start with theirs. */
const conditions: readonly [prefix: string, condition: Condition][] = [
  ['SQLITE_READONLY_DBMOVED', 'moved'],
  ['SQLITE_BUSY', 'busy'],
  ['SQLITE_LOCKED', 'busy'],
  ['SQLITE_PROTOCOL', 'busy'],
  ['SQLITE_FULL', 'full'],
  ['SQLITE_IOERR', 'io'],
  ['SQLITE_CANTOPEN', 'io'],
  ['SQLITE_READONLY', 'read-only'],
]

/** The condition `error` reports, or undefined for an error of the statement itself. */
export function sqliteCondition(error: unknown): Condition | undefined {
  const { code } = (error ?? {}) as { code?: unknown }
  if (typeof code !== 'string') return undefined
  return conditions.find(([prefix]) => code.startsWith(prefix))?.[1]
}

/** `error` as thrown to callers: what the file cannot serve becomes BackendUnavailableError. */
export function unavailableOr(error: unknown): unknown {
  return wrapUnavailable('sqlite', sqliteCondition, error)
}

const rethrow = (error: unknown): Promise<never> => Promise.reject(unavailableOr(error))

/**
 * `target` (a store whose methods return promises, or values at hand) with every method's
 * failures passed through `unavailableOr`: rejected as a promise would, thrown as a value at
 * hand would.
 */
export function guardMethods<T extends object>(target: T): T {
  const guarded = { ...target }
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') continue
    Object.assign(guarded, {
      [name]: (...args: unknown[]) => {
        // An async method rejects rather than throws: a throw is a method at hand failing.
        try {
          const result: unknown = value.apply(target, args)
          return result instanceof Promise ? result.catch(rethrow) : result
        } catch (error) {
          throw unavailableOr(error)
        }
      },
    })
  }
  return guarded
}
