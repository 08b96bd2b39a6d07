/** Pets on SQLite: ids from AUTOINCREMENT (never reused), pages by keyset on id. */
import type { Pet } from '@petstore/types'
import type Database from 'better-sqlite3'
import type { IdempotencyCompletion, ListPetsQuery, PetDraft, PetPage, PetStore } from '../store.js'
import type { GroupCommit } from './group-commit.js'
import { completeIdempotencyStatement } from './idempotency.js'

/** Columns aliased to the Pet's property names, so rows are Pets without a copy. */
const petColumns = 'id, name, category_id AS categoryId, status'

interface PageParams {
  after: number
  status?: string | undefined
}

interface PageRow {
  json: string
  lastId: number | null
  hasMore: 0 | 1
}

/**
 * One page as PetPage wants it, in one statement and so one snapshot (and one read lock of the
 * WAL index rather than two): json_object escapes as JSON.stringify does, ids are the rowid, so
 * rows reach the aggregate in id order, and whether a full page has a successor is asked after
 * it, which costs less than reading a row past the limit and leaving it out of the aggregate.
 *
 * The limit is written into the SQL, not bound: SQLite's planner reads a bound LIMIT, which
 * marks the statement to be prepared again every time that parameter is bound (about 40 of a
 * 65 µs page of 20). Limits are 1..100, so listings prepare at most 200 statements.
 * @see https://www.sqlite.org/json1.html#jgrouparray
 * @see https://www.sqlite.org/c3ref/prepare.html (re-preparing when a binding changes the plan)
 */
function pageQuery(limit: number, filter: string): string {
  return `SELECT json, lastId,
      count = ${limit} AND EXISTS (SELECT 1 FROM pets WHERE id > lastId ${filter}) AS hasMore
    FROM (
      SELECT json_group_array(json_object('id', id, 'name', name, 'categoryId', categoryId, 'status', status)) AS json,
        max(id) AS lastId, count(*) AS count
      FROM (SELECT ${petColumns} FROM pets WHERE id > @after ${filter} ORDER BY id LIMIT ${limit})
    )`
}

export function sqlitePetStore(db: Database.Database, writes: GroupCommit): PetStore {
  const insert = db.prepare<[string, number, string], Pet>(
    `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${petColumns}`,
  )
  const complete = completeIdempotencyStatement(db)
  const byId = db.prepare<[number], Pet>(`SELECT ${petColumns} FROM pets WHERE id = ?`)
  const byStatus = 'AND status = @status'
  // Prepared on first use, indexed by limit: the whole listing's, and the status-filtered ones.
  const pages: Database.Statement<[PageParams], PageRow>[] = []
  const pagesByStatus: Database.Statement<[PageParams], PageRow>[] = []
  const pageStatement = (limit: number, filtered: boolean) => {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) {
      throw new RangeError(`limit must be 1..100, not ${limit}`)
    }
    const prepared = filtered ? pagesByStatus : pages
    prepared[limit] ??= db.prepare(pageQuery(limit, filtered ? byStatus : ''))
    return prepared[limit]
  }
  const create = (draft: PetDraft, completion: IdempotencyCompletion | undefined) => {
    const pet = insert.get(draft.name, draft.categoryId, draft.status) as Pet
    if (completion !== undefined) {
      complete.run(
        JSON.stringify(completion.respond(pet)),
        completion.fingerprint,
        completion.scope,
        completion.key,
      )
    }
    return pet
  }
  return {
    create(draft, idempotency) {
      return writes.run(() => create(draft, idempotency))
    },
    async get(id) {
      if (!Number.isSafeInteger(id) || id < 1) return undefined
      return byId.get(id)
    },
    async list(query: ListPetsQuery): Promise<PetPage> {
      const params = { after: query.afterId ?? 0, status: query.status }
      const statement = pageStatement(query.limit, query.status !== undefined)
      const { json, lastId, hasMore } = statement.get(params) as PageRow
      return { json, lastId: lastId ?? undefined, hasMore: hasMore === 1 }
    },
  }
}
