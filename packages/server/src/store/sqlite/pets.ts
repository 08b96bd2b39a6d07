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
  limit: number
  status?: string | undefined
}

interface PageRow {
  json: string
  lastId: number | null
  count: number
}

/**
 * One page as PetPage wants it: json_object escapes as JSON.stringify does, and ids are the
 * rowid, so rows reach the aggregate in id order. Counting a row past the limit (a window
 * function, or a second scan) costs more than asking afterwards whether a full page has a
 * successor, so `hasMore` is that second, one-row question.
 * @see https://www.sqlite.org/json1.html#jgrouparray
 */
function pageQuery(filter: string): string {
  return `SELECT json_group_array(json_object('id', id, 'name', name, 'categoryId', categoryId, 'status', status)) AS json,
      max(id) AS lastId, count(*) AS count
    FROM (SELECT ${petColumns} FROM pets WHERE id > @after ${filter} ORDER BY id LIMIT @limit)`
}

function successorQuery(filter: string): string {
  return `SELECT EXISTS (SELECT 1 FROM pets WHERE id > @after ${filter})`
}

export function sqlitePetStore(db: Database.Database, writes: GroupCommit): PetStore {
  const insert = db.prepare<[string, number, string], Pet>(
    `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${petColumns}`,
  )
  const complete = completeIdempotencyStatement(db)
  const byId = db.prepare<[number], Pet>(`SELECT ${petColumns} FROM pets WHERE id = ?`)
  const byStatus = 'AND status = @status'
  const page = db.prepare<[PageParams], PageRow>(pageQuery(''))
  const pageByStatus = db.prepare<[PageParams], PageRow>(pageQuery(byStatus))
  const successor = db.prepare<[PageParams], 0 | 1>(successorQuery('')).pluck()
  const successorByStatus = db.prepare<[PageParams], 0 | 1>(successorQuery(byStatus)).pluck()
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
      const params = { after: query.afterId ?? 0, limit: query.limit, status: query.status }
      const filtered = query.status !== undefined
      const { json, lastId, count } = (filtered ? pageByStatus : page).get(params) as PageRow
      if (lastId === null) return { json, lastId: undefined, hasMore: false }
      const next = { ...params, after: lastId }
      const hasMore =
        count === query.limit && (filtered ? successorByStatus : successor).get(next) === 1
      return { json, lastId, hasMore }
    },
  }
}
