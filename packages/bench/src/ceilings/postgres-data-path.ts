/**
 * The PostgreSQL data-path ceiling: a bare node:http server doing only what no implementation
 * on PostgreSQL can skip: the same driver (node-postgres and its pool, as many connections as
 * the service's pool) running the same page query, or the same single-row durable INSERT (one
 * autocommit each, no batching, no lock), then `JSON.stringify`. No framework, no auth, no
 * validation, no rate limiting, no logging. Its cursor is the plain id it points after.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import pg from 'pg'
import { type DataPathCeiling, readDraft, serveDataPath } from './data-path.js'

interface PetRow {
  id: number
  name: string
  categoryId: number
  status: string
}

const petColumns = 'id, name, category_id AS "categoryId", status'
const json = { 'content-type': 'application/json; charset=utf-8' }
const int8 = 20

/**
 * Serves `GET /v1/pets` (`limit`, `cursor`) and `POST /v1/pets` from the database at `url`,
 * which must already hold the service's schema (`options=-c search_path=…` selects one).
 *
 * @example
 * ```ts
 * const { server, close } = createPostgresDataPathCeiling('postgres://postgres@127.0.0.1/test', 10)
 * server.listen(0, '127.0.0.1')
 * ```
 */
export function createPostgresDataPathCeiling(url: string, poolSize: number): DataPathCeiling {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  })
  const fail = (response: ServerResponse) => () =>
    response.writeHead(500, json).end('{"code":"internal_error"}')

  function list(query: URLSearchParams, response: ServerResponse): void {
    const limit = Number(query.get('limit') ?? 20)
    const after = Number(query.get('cursor') ?? 0)
    pool
      .query<PetRow>({
        name: 'pets-page',
        text: `SELECT ${petColumns} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
        values: [after, limit + 1],
      })
      .then(({ rows }) => {
        const headers: Record<string, string> = { ...json }
        if (rows.length > limit) {
          rows.length = limit
          const last = rows[limit - 1] as PetRow
          headers.link = `</v1/pets?limit=${limit}&cursor=${last.id}>; rel="next"`
        }
        response.writeHead(200, headers).end(JSON.stringify(rows))
      }, fail(response))
  }

  function create(request: IncomingMessage, response: ServerResponse): void {
    readDraft(request, (draft) => {
      pool
        .query<PetRow>({
          name: 'insert-pet',
          text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${petColumns}`,
          values: [draft.name, draft.categoryId, draft.status ?? 'available'],
        })
        .then(({ rows }) => {
          const pet = rows[0] as PetRow
          response
            .writeHead(201, { ...json, location: `/v1/pets/${pet.id}` })
            .end(JSON.stringify(pet))
        }, fail(response))
    })
  }

  const server = serveDataPath({ list, create })
  return { server, close: () => void pool.end() }
}
