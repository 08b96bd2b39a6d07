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
  hasMore: 0 | 1
}

/**
 * One page as PetPage wants it: reads one row past the limit to learn
 * whether more follow, and leaves it out of the JSON. json_object escapes as JSON.stringify does.
 * @see https://www.sqlite.org/json1.html#jgrouparray
 */
function pageQuery(filter: string): string {
  return `SELECT coalesce(json_group_array(json_object('id', id, 'name', name, 'categoryId', categoryId, 'status', status) ORDER BY id) FILTER (WHERE n <= @limit), '[]') AS json,
      max(id) FILTER (WHERE n <= @limit) AS lastId, count(*) > @limit AS hasMore
    FROM (SELECT ${petColumns}, row_number() OVER (ORDER BY id) AS n
      FROM pets WHERE id > @after ${filter} ORDER BY id LIMIT @limit + 1)`
}

export function sqlitePetStore(db: Database.Database, writes: GroupCommit): PetStore {
  const insert = db.prepare<[string, number, string], Pet>(
    `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${petColumns}`,
  )
  const complete = completeIdempotencyStatement(db)
  const byId = db.prepare<[number], Pet>(`SELECT ${petColumns} FROM pets WHERE id = ?`)
  const page = db.prepare<[PageParams], PageRow>(pageQuery(''))
  const pageByStatus = db.prepare<[PageParams], PageRow>(pageQuery('AND status = @status'))
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
      const row = query.status === undefined ? page.get(params) : pageByStatus.get(params)
      const { json, lastId, hasMore } = row as PageRow
      return { json, lastId: lastId ?? undefined, hasMore: hasMore === 1 }
    },
  }
}
