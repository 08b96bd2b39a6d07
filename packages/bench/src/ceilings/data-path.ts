/**
 * The data-path ceiling: a bare node:http server doing only the work no implementation of the
 * API can skip: the same SQLite reads, or the same durable write, on a database opened with the
 * service's pragmas (WAL, `synchronous = FULL`, a 2 MiB page cache), on pets stored as the
 * service stores them (`id` and a JSON document, ../pet-documents.ts), each answered as
 * `{"id":N,` spliced before its document. No framework, no auth, no validation, no rate
 * limiting, no logging. Its cursor is the plain id it points after.
 * @see https://www.sqlite.org/pragma.html#pragma_synchronous
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { NewPet } from '@petstore/types'
import Database from 'better-sqlite3'
import {
  draftDocument,
  pageJson,
  petJson,
  type StoredPet,
  statusExpression,
} from '../pet-documents.js'

export interface DataPathCeiling {
  server: Server
  /** Closes the database; call after the server has stopped. */
  close(): void
}

const json = { 'content-type': 'application/json; charset=utf-8' }

/**
 * Serves `GET /v1/pets` (`limit`, `status`, `cursor`), `GET /v1/pets/{id}` and `POST /v1/pets`
 * from the SQLite file at `dbPath`, which must already hold the service's schema.
 *
 * @example
 * ```ts
 * const { server, close } = createDataPathCeiling('/tmp/bench/ceiling.db')
 * server.listen(0, '127.0.0.1')
 * ```
 */
export function createDataPathCeiling(dbPath: string): DataPathCeiling {
  const { db, pageStatement, byId, insert } = openPetDatabase(dbPath)

  function list(query: URLSearchParams, response: ServerResponse): void {
    const limit = Number(query.get('limit') ?? 20)
    const status = query.get('status')
    const after = Number(query.get('cursor') ?? 0)
    const statement = pageStatement(limit + 1, status !== null)
    const rows = status === null ? statement.all(after) : statement.all(after, status)
    const headers: Record<string, string> = { ...json }
    if (rows.length > limit) {
      rows.length = limit
      const filter = status === null ? '' : `&status=${status}`
      const last = rows[limit - 1] as StoredPet
      headers.link = `</v1/pets?limit=${limit}${filter}&cursor=${last.id}>; rel="next"`
    }
    response.writeHead(200, headers).end(pageJson(rows))
  }

  function get(id: number, response: ServerResponse): void {
    const row = byId.get(id)
    if (row === undefined) response.writeHead(404, json).end('{"code":"not_found"}')
    else response.writeHead(200, json).end(petJson(row.id, row.doc))
  }

  function create(request: IncomingMessage, response: ServerResponse): void {
    readDraft(request, (draft) => {
      const doc = draftDocument(draft)
      const { id } = insert.get(doc) as { id: number }
      response.writeHead(201, { ...json, location: `/v1/pets/${id}` }).end(petJson(id, doc))
    })
  }

  const server = serveDataPath({ list, create, get })
  return { server, close: () => db.close() }
}

export interface PetDatabase {
  db: Database.Database
  /** A page of `rows` rows after an id, optionally of one status. */
  pageStatement(rows: number, filtered: boolean): Database.Statement<unknown[], StoredPet>
  byId: Database.Statement<[number], StoredPet>
  /** Stores a document, returning the new pet's id. */
  insert: Database.Statement<[string], { id: number }>
}

/**
 * The database of a SQLite ceiling, opened with the service's pragmas (WAL, `synchronous =
 * FULL`, a 2 MiB page cache), and its statements on `pets`.
 */
export function openPetDatabase(dbPath: string): PetDatabase {
  const db = new Database(dbPath)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.pragma('cache_size = -2000')
  // The limit is written into the SQL as the service does: a bound LIMIT makes SQLite prepare
  // the statement again on every call (packages/server/src/store/sqlite/resources.ts).
  // Prepared on first use, indexed by the rows asked for, without and with the status filter.
  const pages: Database.Statement<unknown[], StoredPet>[] = []
  const pagesByStatus: Database.Statement<unknown[], StoredPet>[] = []
  const pageStatement = (rows: number, filtered: boolean) => {
    const prepared = filtered ? pagesByStatus : pages
    const filter = filtered ? `AND ${statusExpression('sqlite')} = ?` : ''
    prepared[rows] ??= db.prepare<unknown[], StoredPet>(
      `SELECT id, doc FROM pets WHERE id > ? ${filter} ORDER BY id LIMIT ${rows}`,
    )
    return prepared[rows]
  }
  const byId = db.prepare<[number], StoredPet>('SELECT id, doc FROM pets WHERE id = ?')
  const insert = db.prepare<[string], { id: number }>(
    'INSERT INTO pets (doc) VALUES (?) RETURNING id',
  )
  return { db, pageStatement, byId, insert }
}

/** Reads a request's JSON body (no checks: the ceiling does only unavoidable work). */
export function readDraft(request: IncomingMessage, then: (draft: NewPet) => void): void {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => then(JSON.parse(Buffer.concat(chunks).toString('utf8')) as NewPet))
}

/** The ceiling's routes: `GET /v1/pets`, `POST /v1/pets` and (when given) `GET /v1/pets/{id}`. */
export function serveDataPath(handlers: {
  list(query: URLSearchParams, response: ServerResponse): void
  create(request: IncomingMessage, response: ServerResponse): void
  get?(id: number, response: ServerResponse): void
}): Server {
  return createServer((request, response) => {
    const url = request.url ?? '/'
    const mark = url.indexOf('?')
    const path = mark === -1 ? url : url.slice(0, mark)
    if (path === '/v1/pets' && request.method === 'GET') {
      handlers.list(new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1)), response)
    } else if (path === '/v1/pets' && request.method === 'POST') {
      handlers.create(request, response)
    } else if (handlers.get && path.startsWith('/v1/pets/') && request.method === 'GET') {
      handlers.get(Number(path.slice('/v1/pets/'.length)), response)
    } else {
      response.writeHead(404, json).end('{"code":"not_found"}')
    }
  })
}
