/**
 * Group commit of a resource's creations for the PostgreSQL store: the creates that arrive while the
 * previous group commits (or within one turn of the event loop) are written by one INSERT in one
 * transaction, so one WAL flush acknowledges them all and a `201` is always committed. If the
 * group's transaction fails for anything but the database itself (lost, out of disk, read-only:
 * then every create of the group is refused), each create is retried alone, so a failing insert
 * rejects only itself.
 *
 * Every group takes its table's advisory lock before its INSERT draws ids from the sequence and
 * holds it until COMMIT: that is what keeps pagination exact across instances (see README.md).
 */
import type pg from 'pg'
import { commitDurable, commitStarted } from '../commit-channel.js'
import type { DocumentCodec, Encoded } from '../documents.js'
import type { Draft, IdempotencyCompletion, Identified } from '../resource.js'
import { isUnavailable, noteWrite, unavailableOr } from './connection.js'

interface Queued<R extends Identified> {
  /** The draft, as stored and as returned. */
  doc: Encoded<R>
  completion: IdempotencyCompletion<R> | undefined
  resolve: (created: R) => void
  reject: (reason: unknown) => void
}

/** Largest group: bounds one statement's parameters and one transaction's length. */
const maxGroup = 500

/** The SQL of a group commit on `table` (and of `Store.seed`, seed.ts). */
export function groupStatements(table: string) {
  /** Serializes id assignment with commit, per schema and table, across every instance. */
  const lock = `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.${table}'))`
  return {
    lock,
    insert: `INSERT INTO ${table} (doc)
      SELECT t.doc::json FROM unnest($1::text[]) WITH ORDINALITY AS t(doc, ord)
      ORDER BY t.ord
      RETURNING id`,
    /**
     * The group without idempotency records: lock and INSERT in one statement, so one round trip
     * and one implicit transaction. The lock is taken before any id is drawn (the join needs the
     * CTE's row first, and ids are drawn above the sort) and held until that transaction commits.
     */
    lockAndInsert: `WITH lock AS MATERIALIZED (${lock})
      INSERT INTO ${table} (doc)
      SELECT t.doc::json FROM lock, unnest($1::text[]) WITH ORDINALITY AS t(doc, ord)
      ORDER BY t.ord
      RETURNING id`,
  }
}

const completeRecords = `UPDATE idempotency_records AS r
  SET state = 'completed', fingerprint = t.fingerprint, response = t.response
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(scope, key, fingerprint, response)
  WHERE r.scope = t.scope AND r.key = t.key`

export type Create<R extends Identified> = (
  draft: Draft<R>,
  completion?: IdempotencyCompletion<R>,
) => Promise<R>

export function batchCreates<R extends Identified>(
  pool: pg.Pool,
  table: string,
  codec: DocumentCodec<R>,
): Create<R> {
  const sql = groupStatements(table)
  let queue: Queued<R>[] = []
  let writing = false

  async function drain(): Promise<void> {
    writing = true
    while (queue.length > 0) {
      const group = queue.slice(0, maxGroup)
      queue = queue.slice(group.length)
      await writeGroup(group)
    }
    writing = false
  }

  async function writeGroup(group: Queued<R>[]): Promise<void> {
    let created: R[]
    const startedAt = commitStarted()
    try {
      created = await commit(pool, table, sql, group)
    } catch (error) {
      if (group.length === 1 || isUnavailable(error)) {
        const refused = unavailableOr(error)
        noteWrite(pool, refused)
        for (const item of group) item.reject(refused)
        return
      }
      for (const item of group) await writeGroup([item])
      return
    }
    noteWrite(pool)
    commitDurable('postgresql', group.length, startedAt)
    for (const [index, item] of group.entries()) item.resolve(created[index] as R)
  }

  return (draft, completion) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ doc: codec.encode(draft), completion, resolve, reject })
      if (!writing && queue.length === 1) setImmediate(() => void drain())
    })
}

/**
 * Inserts the group's documents and completes their idempotency records in one transaction;
 * resolves with the created resources in the group's order.
 */
async function commit<R extends Identified>(
  pool: pg.Pool,
  table: string,
  sql: ReturnType<typeof groupStatements>,
  group: readonly Queued<R>[],
): Promise<R[]> {
  const docs = [group.map((item) => item.doc.text)]
  // Ids are drawn in the SELECT's order, so id order is the group's order.
  const resources = (rows: { id: number }[]) =>
    rows
      .map((row) => row.id)
      .sort((a, b) => a - b)
      .map((id, index) => (group[index] as Queued<R>).doc.withId(id))
  if (group.every((item) => item.completion === undefined)) {
    const { rows } = await pool.query<{ id: number }>({
      name: `${table}-lock-and-insert`,
      text: sql.lockAndInsert,
      values: docs,
    })
    return resources(rows)
  }
  return inLockedTransaction(pool, sql, async (client) => {
    const { rows } = await client.query<{ id: number }>({
      name: `${table}-insert`,
      text: sql.insert,
      values: docs,
    })
    const created = resources(rows)
    const completed = group.flatMap((item, index) =>
      item.completion === undefined ? [] : [{ ...item.completion, created: created[index] as R }],
    )
    if (completed.length > 0) {
      await client.query({
        name: 'complete-records',
        text: completeRecords,
        values: [
          completed.map((c) => c.scope),
          completed.map((c) => c.key),
          completed.map((c) => c.fingerprint),
          completed.map((c) => JSON.stringify(c.respond(c.created))),
        ],
      })
    }
    return created
  })
}

/**
 * Runs `work` on one connection in a transaction that holds the table's lock (`sql.lock`) from
 * its start to its commit; rolls back when `work` fails. A connection lost on the way is not
 * given back to the pool.
 */
export async function inLockedTransaction<T>(
  pool: pg.Pool,
  sql: ReturnType<typeof groupStatements>,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query(`BEGIN; ${sql.lock}`)
    try {
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    }
  } catch (error) {
    if (isUnavailable(error)) broken = error as Error
    throw error
  } finally {
    client.release(broken)
  }
}
