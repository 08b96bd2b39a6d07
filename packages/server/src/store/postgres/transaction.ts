/**
 * Transactions on PostgreSQL (resource.ts `Transaction`): a write runs on one connection between
 * BEGIN and COMMIT, at READ COMMITTED. `read` locks its row (`FOR UPDATE`), so writes of one
 * resource on any instance take turns and each sees the last one's result; a statement that
 * follows a lock sees every commit made before the lock was granted. What a step throws rolls
 * the whole write back.
 * @see https://www.postgresql.org/docs/current/explicit-locking.html#LOCKING-ROWS
 */
import type pg from 'pg'
import type { MaybePromise } from '../../maybe-promise.js'
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
import { groupStatements } from './batching.js'
import { isUnavailable, noteWrite, unavailableOr } from './connection.js'

/** A row as its resource's JSON text: `{"id":N,` then the document's members. */
export const resourceJson = `'{"id":' || id || CASE WHEN doc::text = '{}' THEN '}' ELSE ',' || substr(doc::text, 2) END`

const codecs = new Map<string, DocumentCodec<Identified>>()
/** The codec of a schema's documents, made once. */
function codecOf<R extends Identified>(schema: string): DocumentCodec<R> {
  let codec = codecs.get(schema)
  if (codec === undefined) {
    codec = documentCodec<Identified>(schema)
    codecs.set(schema, codec)
  }
  return codec as unknown as DocumentCodec<R>
}

export const completeRecord = `UPDATE idempotency_records
  SET state = 'completed', fingerprint = $3, response = $4 WHERE scope = $1 AND key = $2`

export interface PostgresTransactions {
  /** Runs `work` in one transaction and resolves with its result once committed. */
  run<T>(work: (transaction: PostgresTransaction) => MaybePromise<T>): Promise<T>
}

/** A transaction on one connection, which can also create (after the table's lock). */
export interface PostgresTransaction extends Transaction {
  insert<K extends ListOperationId, R extends Identified>(
    definition: ResourceDefinition<K, R>,
    draft: Omit<R, 'id'>,
    owner: string | undefined,
    completion: IdempotencyCompletion<R> | undefined,
  ): Promise<R>
}

export function postgresTransactions(pool: pg.Pool): PostgresTransactions {
  return {
    async run(work) {
      let client: pg.PoolClient | undefined
      let broken: Error | undefined
      try {
        client = await pool.connect()
        await client.query('BEGIN')
        try {
          const result = await work(onConnection(client))
          await client.query('COMMIT')
          noteWrite(pool)
          return result
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {})
          throw error
        }
      } catch (error) {
        const refused = unavailableOr(error)
        if (isUnavailable(error)) {
          broken = error as Error
          noteWrite(pool, refused)
        }
        throw refused
      } finally {
        client?.release(broken)
      }
    },
  }
}

const ofOwner = (table: ResourceTable, parameter: number) =>
  table.owned === true ? ` AND ${ownerColumn} = $${parameter}` : ''

function onConnection(client: pg.PoolClient): PostgresTransaction {
  return {
    async read(definition, id, owner) {
      if (!Number.isSafeInteger(id) || id < 1) return undefined
      const owned = definition.owned === true
      const { rows } = await client.query<{ json: string }>(
        `SELECT ${resourceJson} AS json FROM ${definition.table} WHERE id = $1${ofOwner(definition, 2)} FOR UPDATE`,
        owned ? [id, owner] : [id],
      )
      return rows[0] === undefined ? undefined : JSON.parse(rows[0].json)
    },
    async replace(definition, changed) {
      const { id, ...draft } = changed
      const text = codecOf(definition.schema).encode(draft).text
      await client.query(`UPDATE ${definition.table} SET doc = $2::json WHERE id = $1`, [id, text])
    },
    async remove(definition, id) {
      await client.query(`DELETE FROM ${definition.table} WHERE id = $1`, [id])
    },
    async exists(definition, where) {
      const paths = Object.keys(where) as (keyof typeof where & string)[]
      const conditions = paths.map(
        (path, index) => `${fieldExpression('postgres', path)} = ANY($${index + 1}::text[])`,
      )
      const { rows } = await client.query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${definition.table} WHERE ${conditions.join(' AND ') || 'true'}) AS found`,
        paths.map((path) => ((where[path] ?? []) as readonly unknown[]).map(String)),
      )
      return rows[0]?.found === true
    },
    insert: (definition, draft, owner, completion) =>
      insertRow(client, definition, draft, owner, completion),
  }
}

async function insertRow<K extends ListOperationId, R extends Identified>(
  client: pg.PoolClient,
  definition: ResourceDefinition<K, R>,
  draft: Omit<R, 'id'>,
  owner: string | undefined,
  completion: IdempotencyCompletion<R> | undefined,
): Promise<R> {
  const { table } = definition
  const owned = definition.owned === true
  // The table's lock, held to the commit, keeps ids committed in order (batching.ts).
  await client.query(groupStatements(table).lock)
  const encoded = codecOf<R>(definition.schema).encode(draft)
  const { rows } = await client.query<{ id: number }>(
    owned
      ? `INSERT INTO ${table} (doc, ${ownerColumn}) VALUES ($1::json, $2) RETURNING id`
      : `INSERT INTO ${table} (doc) VALUES ($1::json) RETURNING id`,
    owned ? [encoded.text, owner] : [encoded.text],
  )
  const created = encoded.withId((rows[0] as { id: number }).id)
  if (completion !== undefined) {
    await client.query(completeRecord, [
      completion.scope,
      completion.key,
      completion.fingerprint,
      JSON.stringify(completion.respond(created)),
    ])
  }
  return created
}
