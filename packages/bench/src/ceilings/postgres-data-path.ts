/**
 * The PostgreSQL data-path ceiling: a bare node:http server doing only what no implementation
 * on PostgreSQL can skip: the same driver (node-postgres and its pool, as many connections as
 * the service's pool) running the same page query, or the same single-row durable INSERT (one
 * autocommit each, no batching, no lock), on pets stored as the service stores them (`id` and
 * a `json` document, ../pet-documents.ts), each answered as `{"id":N,` spliced before its
 * document. No framework, no auth, no validation, no rate limiting, no logging. Its cursor is
 * the plain id it points after.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import pg from 'pg'
import {
  draftDocument,
  pageJson,
  petJson,
  type StoredPet,
  statusExpression,
} from '../pet-documents.js'
import { type DataPathCeiling, readDraft, serveDataPath } from './data-path.js'

// As text: node-postgres would parse a `json` column, and the answer splices the text.
const petColumns = 'id, doc::text AS doc'
const json = { 'content-type': 'application/json; charset=utf-8' }
const int8 = 20

/**
 * Serves `GET /v1/pets` (`limit`, `status`, `cursor`) and `POST /v1/pets` from the database at `url`,
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
    const status = query.get('status')
    const after = Number(query.get('cursor') ?? 0)
    const page =
      status === null
        ? { name: 'pets-page', filter: '', values: [after, limit + 1] }
        : {
            name: 'pets-page-status',
            filter: `AND ${statusExpression('postgres')} = $3`,
            values: [after, limit + 1, status],
          }
    pool
      .query<StoredPet>({
        name: page.name,
        text: `SELECT ${petColumns} FROM pets WHERE id > $1 ${page.filter} ORDER BY id LIMIT $2`,
        values: page.values,
      })
      .then(({ rows }) => {
        const headers: Record<string, string> = { ...json }
        if (rows.length > limit) {
          rows.length = limit
          const filter = status === null ? '' : `&status=${status}`
          const last = rows[limit - 1] as StoredPet
          headers.link = `</v1/pets?limit=${limit}${filter}&cursor=${last.id}>; rel="next"`
        }
        response.writeHead(200, headers).end(pageJson(rows))
      }, fail(response))
  }

  function create(request: IncomingMessage, response: ServerResponse): void {
    readDraft(request, (draft) => {
      const doc = draftDocument(draft)
      pool
        .query<{ id: number }>({
          name: 'insert-pet',
          text: 'INSERT INTO pets (doc) VALUES ($1) RETURNING id',
          values: [doc],
        })
        .then(({ rows }) => {
          const { id } = rows[0] as { id: number }
          response.writeHead(201, { ...json, location: `/v1/pets/${id}` }).end(petJson(id, doc))
        }, fail(response))
    })
  }

  const server = serveDataPath({ list, create })
  return { server, close: () => void pool.end() }
}
