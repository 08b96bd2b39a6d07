/**
 * `update` and `remove` of a resource's store (resource.ts), one transaction each, on any store
 * that can run one (`run`: SQLite's group commit, PostgreSQL's connection): read the resource
 * locked, let the caller's step decide, then write. The steps are written with `andThen`, so the
 * same code runs at once on SQLite and later on PostgreSQL.
 */
import { andThen, type MaybePromise } from '../maybe-promise.js'
import type {
  Identified,
  ListOperationId,
  ResourceDefinition,
  ResourceStore,
  Transaction,
} from './resource.js'

/** Runs `work` in one transaction of the store and resolves with its result once committed. */
export type RunTransaction = <T>(work: (transaction: Transaction) => MaybePromise<T>) => Promise<T>

export function transactionalWrites<K extends ListOperationId, R extends Identified>(
  run: RunTransaction,
  definition: ResourceDefinition<K, R>,
): Pick<ResourceStore<K, R>, 'update' | 'remove'> {
  return {
    update: (id, change, owner) =>
      run((transaction) =>
        andThen(transaction.read(definition, id, owner), (current) => {
          if (current === undefined) return undefined
          return andThen(change(current, transaction), (draft) => {
            const changed = { id, ...draft } as R
            return andThen(transaction.replace(definition, changed), () => changed)
          })
        }),
      ),
    remove: (id, check, owner) =>
      run((transaction) =>
        andThen(transaction.read(definition, id, owner), (current) => {
          if (current === undefined) return false
          return andThen(check?.(current, transaction), () =>
            andThen(transaction.remove(definition, id), () => true),
          )
        }),
      ),
  }
}
