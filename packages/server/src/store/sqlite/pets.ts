/** Pets on SQLite: ids from AUTOINCREMENT (never reused), pages by keyset on id. */
import type { Pet } from '@petstore/types'
import type Database from 'better-sqlite3'
import type { IdempotencyCompletion, ListPetsQuery, PetDraft, PetPage, PetStore } from '../store.js'
import type { GroupCommit } from './group-commit.js'
import { completeIdempotencyStatement } from './idempotency.js'

/** Columns aliased to the Pet's property names, so rows are Pets without a copy. */
const petColumns = 'id, name, category_id AS categoryId, status'

export function sqlitePetStore(db: Database.Database, writes: GroupCommit): PetStore {
  const insert = db.prepare<[string, number, string], Pet>(
    `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${petColumns}`,
  )
  const complete = completeIdempotencyStatement(db)
  const byId = db.prepare<[number], Pet>(`SELECT ${petColumns} FROM pets WHERE id = ?`)
  const page = db.prepare<[number, number], Pet>(
    `SELECT ${petColumns} FROM pets WHERE id > ? ORDER BY id LIMIT ?`,
  )
  const pageByStatus = db.prepare<[number, string, number], Pet>(
    `SELECT ${petColumns} FROM pets WHERE id > ? AND status = ? ORDER BY id LIMIT ?`,
  )
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
      const after = query.afterId ?? 0
      const rows =
        query.status === undefined
          ? page.all(after, query.limit + 1)
          : pageByStatus.all(after, query.status, query.limit + 1)
      const hasMore = rows.length > query.limit
      if (hasMore) rows.pop()
      return { pets: rows, hasMore }
    },
  }
}
