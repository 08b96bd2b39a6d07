/** Pets on PostgreSQL: reads straight from the pool, creates through the group commit. */
import type { Pet } from '@petstore/types'
import type pg from 'pg'
import type { ListPetsQuery, PetPage, PetStore } from '../store.js'
import { batchCreates } from './batching.js'
import { guarded } from './connection.js'

const petColumns = 'id, name, category_id AS "categoryId", status'

export function postgresPetStore(pool: pg.Pool): PetStore {
  const create = batchCreates(pool)
  return {
    create,
    get(id) {
      if (!Number.isSafeInteger(id) || id < 1) return Promise.resolve(undefined)
      return guarded(async () => {
        const { rows } = await pool.query<Pet>({
          name: 'pet-by-id',
          text: `SELECT ${petColumns} FROM pets WHERE id = $1`,
          values: [id],
        })
        return rows[0]
      })
    },
    list(query: ListPetsQuery): Promise<PetPage> {
      return guarded(async () => {
        const after = query.afterId ?? 0
        const { rows } =
          query.status === undefined
            ? await pool.query<Pet>({
                name: 'pets-page',
                text: `SELECT ${petColumns} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
                values: [after, query.limit + 1],
              })
            : await pool.query<Pet>({
                name: 'pets-page-by-status',
                text: `SELECT ${petColumns} FROM pets WHERE id > $1 AND status = $2 ORDER BY id LIMIT $3`,
                values: [after, query.status, query.limit + 1],
              })
        const hasMore = rows.length > query.limit
        if (hasMore) rows.pop()
        return { pets: rows, hasMore }
      })
    },
  }
}
