/**
 * Transactions on SQLite (resource.ts `Transaction`): a write runs whole inside the group commit
 * (group-commit.ts), synchronously, so every step answers at once and nothing else runs between
 * its read and its write; what it throws rolls back its part of the group. The statements of a
 * resource's table are prepared once, on first use, and shared with the resource's store.
 */
import type Database from 'better-sqlite3'
import { isPromise, type MaybePromise } from '../../maybe-promise.js'
import { type DocumentCodec, documentCodec } from '../documents.js'
import { fieldExpression, ownerColumn } from '../migrations.js'
import type {
  IdempotencyCompletion,
  Identified,
  ListOperationId,
  ResourceDefinition,
  ResourceTable,
  Transaction,
} from '../resource.js'
import type { GroupCommit } from './group-commit.js'
import { completeIdempotencyStatement } from './idempotency.js'

/**
 * A row as its resource's JSON text: `{"id":N,` then the document's members. The document is cut
 * as a BLOB: `substr` on TEXT steps through every UTF-8 character to find where to start and
 * end; on a BLOB it counts bytes, and the one byte cut is `{`.
 */
export const resourceJson = `'{"id":' || id || iif(doc = '{}', '}', ',' || substr(CAST(doc AS BLOB), 2))`

/** json_extract reads JSON's true and false as 1 and 0, and better-sqlite3 binds no boolean. */
export function bindable(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value
}

/** The prepared statements of one resource's table. */
export interface TableStatements {
  codec: DocumentCodec<Identified>
  /** The resource's JSON text by id (and owner, for an owned resource). */
  byId: Database.Statement<unknown[], string>
  insert: Database.Statement<unknown[], { id: number }>
  replace: Database.Statement<[string, number]>
  remove: Database.Statement<[number]>
}

export interface SqliteTransactions {
  /** Runs `work` as one write of the next group and resolves with its result once committed. */
  run<T>(work: (transaction: Transaction) => MaybePromise<T>): Promise<T>
  /** The statements of `definition`'s table. */
  statements(definition: ResourceTable): TableStatements
  /** Inserts a draft (with its owner) and completes its idempotency record: part of a write. */
  insert<K extends ListOperationId, R extends Identified>(
    definition: ResourceDefinition<K, R>,
    draft: Omit<R, 'id'>,
    owner: string | undefined,
    completion: IdempotencyCompletion<R> | undefined,
  ): R
}

export function sqliteTransactions(db: Database.Database, writes: GroupCommit): SqliteTransactions {
  const tables = new Map<string, TableStatements>()
  const complete = completeIdempotencyStatement(db)
  const statements = (definition: ResourceTable): TableStatements => {
    let found = tables.get(definition.table)
    if (found === undefined) {
      const { table } = definition
      const owned = definition.owned === true
      const ofOwner = owned ? ` AND ${ownerColumn} = ?` : ''
      const byId = db.prepare<unknown[], string>(
        `SELECT ${resourceJson} FROM ${table} WHERE id = ?${ofOwner}`,
      )
      byId.pluck()
      found = {
        codec: documentCodec<Identified>(definition.schema),
        byId,
        insert: db.prepare<unknown[], { id: number }>(
          owned
            ? `INSERT INTO ${table} (doc, ${ownerColumn}) VALUES (?, ?) RETURNING id`
            : `INSERT INTO ${table} (doc) VALUES (?) RETURNING id`,
        ),
        replace: db.prepare<[string, number]>(`UPDATE ${table} SET doc = ? WHERE id = ?`),
        remove: db.prepare<[number]>(`DELETE FROM ${table} WHERE id = ?`),
      }
      tables.set(table, found)
    }
    return found
  }
  const exists = new Map<string, Database.Statement<unknown[], number>>()
  const transaction: Transaction = {
    read(definition, id, owner) {
      if (!Number.isSafeInteger(id) || id < 1) return undefined
      const text = statements(definition).byId.get(
        ...(definition.owned === true ? [id, owner] : [id]),
      )
      return text === undefined ? undefined : JSON.parse(text)
    },
    replace(definition, changed) {
      const { codec, replace } = statements(definition)
      const { id, ...draft } = changed
      replace.run(codec.encode(draft).text, id)
    },
    remove(definition, id) {
      statements(definition).remove.run(id)
    },
    exists(definition, where) {
      const paths = Object.keys(where) as (keyof typeof where & string)[]
      const values = paths.map((path) => (where[path] ?? []) as readonly unknown[])
      const key = `${definition.table} ${paths.map((p, i) => `${p}:${values[i]?.length}`).join(' ')}`
      let statement = exists.get(key)
      if (statement === undefined) {
        const conditions = paths.map(
          (path, i) =>
            `${fieldExpression('sqlite', path)} IN (${(values[i] ?? []).map(() => '?').join(', ')})`,
        )
        statement = db.prepare<unknown[], number>(
          `SELECT EXISTS (SELECT 1 FROM ${definition.table} WHERE ${conditions.join(' AND ') || '1'})`,
        )
        statement.pluck()
        exists.set(key, statement)
      }
      return statement.get(...values.flat().map(bindable)) === 1
    },
  }
  function insert<K extends ListOperationId, R extends Identified>(
    definition: ResourceDefinition<K, R>,
    draft: Omit<R, 'id'>,
    owner: string | undefined,
    completion: IdempotencyCompletion<R> | undefined,
  ): R {
    const { codec, insert: statement } = statements(definition)
    const encoded = codec.encode(draft)
    const owned = definition.owned === true
    const { id } = statement.get(...(owned ? [encoded.text, owner] : [encoded.text])) as {
      id: number
    }
    const created = encoded.withId(id) as R
    if (completion !== undefined) {
      complete.run(
        JSON.stringify(completion.respond(created)),
        completion.fingerprint,
        completion.scope,
        completion.key,
      )
    }
    return created
  }
  return {
    run: (work) =>
      writes.run(() => {
        const result = work(transaction)
        // A step that answered later would run after this transaction committed.
        if (isPromise(result)) throw new Error('a SQLite write must finish at once')
        return result
      }),
    statements,
    insert,
  }
}
