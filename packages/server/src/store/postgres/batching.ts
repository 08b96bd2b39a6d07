/**
 * Group commit of pet creations for the PostgreSQL store: the creates that arrive while the
 * previous group commits (or within one turn of the event loop) are written by one INSERT in one
 * transaction, so one WAL flush acknowledges them all and a `201` is always committed. If the
 * group's transaction fails for anything but the database itself (lost, out of disk, read-only:
 * then every create of the group is refused), each create is retried alone, so a failing insert
 * rejects only itself.
 *
 * Every group takes the pets advisory lock before its INSERT draws ids from the sequence and
 * holds it until COMMIT: that is what keeps pagination exact across instances (see README.md).
 */
import type { Pet } from '@petstore/types'
import type pg from 'pg'
import type { IdempotencyCompletion, PetDraft } from '../store.js'
import { isUnavailable, noteWrite, unavailableOr } from './connection.js'

interface Queued {
  draft: PetDraft
  completion: IdempotencyCompletion | undefined
  resolve: (pet: Pet) => void
  reject: (reason: unknown) => void
}

/** Largest group: bounds one statement's parameters and one transaction's length. */
const maxGroup = 500

/** Serializes id assignment with commit, per schema, across every instance. */
const lockPets = `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.pets'))`

const insertPets = `INSERT INTO pets (name, category_id, status)
  SELECT name, category_id, status
  FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS t(name, category_id, status, ord)
  ORDER BY ord
  RETURNING id, name, category_id AS "categoryId", status`

/**
 * The group without idempotency records: lock and INSERT in one statement, so one round trip
 * and one implicit transaction. The lock is taken before any id is drawn (the join needs the
 * CTE's row first, and ids are drawn above the sort) and held until that transaction commits.
 */
const lockAndInsertPets = `WITH lock AS MATERIALIZED (${lockPets})
  INSERT INTO pets (name, category_id, status)
  SELECT t.name, t.category_id, t.status
  FROM lock, unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS t(name, category_id, status, ord)
  ORDER BY t.ord
  RETURNING id, name, category_id AS "categoryId", status`

const completeRecords = `UPDATE idempotency_records AS r
  SET state = 'completed', fingerprint = t.fingerprint, response = t.response
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(scope, key, fingerprint, response)
  WHERE r.scope = t.scope AND r.key = t.key`

export type CreatePet = (draft: PetDraft, completion?: IdempotencyCompletion) => Promise<Pet>

export function batchCreates(pool: pg.Pool): CreatePet {
  let queue: Queued[] = []
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

  async function writeGroup(group: Queued[]): Promise<void> {
    let pets: Pet[]
    try {
      pets = await commit(pool, group)
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
    for (const [index, item] of group.entries()) item.resolve(pets[index] as Pet)
  }

  return (draft, completion) =>
    new Promise<Pet>((resolve, reject) => {
      queue.push({ draft, completion, resolve, reject })
      if (!writing && queue.length === 1) setImmediate(() => void drain())
    })
}

const columns = (group: readonly Queued[]) => [
  group.map((item) => item.draft.name),
  group.map((item) => item.draft.categoryId),
  group.map((item) => item.draft.status),
]

/** Inserts the group's pets and completes their idempotency records in one transaction. */
async function commit(pool: pg.Pool, group: readonly Queued[]): Promise<Pet[]> {
  if (group.every((item) => item.completion === undefined)) {
    const { rows } = await pool.query<Pet>({
      name: 'lock-and-insert-pets',
      text: lockAndInsertPets,
      values: columns(group),
    })
    return rows.sort((a, b) => a.id - b.id)
  }
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query(`BEGIN; ${lockPets}`)
    try {
      const { rows } = await client.query<Pet>({
        name: 'insert-pets',
        text: insertPets,
        values: columns(group),
      })
      // Ids are drawn in the SELECT's order, so id order is the group's order.
      rows.sort((a, b) => a.id - b.id)
      const completed = group.flatMap((item, index) =>
        item.completion === undefined ? [] : [{ ...item.completion, pet: rows[index] as Pet }],
      )
      if (completed.length > 0) {
        await client.query({
          name: 'complete-records',
          text: completeRecords,
          values: [
            completed.map((c) => c.scope),
            completed.map((c) => c.key),
            completed.map((c) => c.fingerprint),
            completed.map((c) => JSON.stringify(c.respond(c.pet))),
          ],
        })
      }
      await client.query('COMMIT')
      return rows
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
