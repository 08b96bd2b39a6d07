/**
 * The contract ceiling: the work the service's contract asks for on the bench's calls, written
 * the leanest way: bare node:http and better-sqlite3 on a copy of the service's database, none
 * of the service's request path, only its formats (its cursor codec, its stored documents, its
 * commit channel), so that both do the same work on the same bytes. Per /v1 request: the
 * SHA-256 of the bearer key looked up in a Map loaded from `api_keys` at start (401 with the
 * Error body otherwise), two fixed windows in memory (minute and day) with the service's
 * rate-limit headers, a generated `X-Request-Id`, `nosniff`, `no-store`, CORS when the request
 * has an Origin, one JSON log line written asynchronously to a file. listPets pages by the
 * service's block cursor with a next link, getPet adds the deprecation headers, createPet
 * validates the NewPet by hand and commits a turn's creates in one durable transaction (WAL,
 * `synchronous = FULL`) before answering 201.
 *
 * Deliberately not: per-IP limits and bans, idempotency keys, a client's own request id, HEAD,
 * OPTIONS, 405s, the edge's timeouts. Pets are stored as the service stores them (`id` and a
 * JSON document, ../pet-documents.ts); a page splices each row's document after its id in
 * JavaScript (as the data-path ceiling), not in SQL.
 */
import { hash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { commitDurable, commitStarted } from '@petstore/server/internal/commit-channel'
import type { CursorCodec } from '@petstore/server/internal/cursor'
import { type NewPet, type PetStatus, petStatusValues } from '@petstore/types'
import type Database from 'better-sqlite3'
import { draftDocument, pageJson, petJson, type StoredPet } from '../pet-documents.js'
import { createContractCursors } from './contract-cursor.js'
import { openPetDatabase, type PetDatabase } from './data-path.js'

interface KeyRow {
  keyHash: string
  plan: string
  perMinute: number | null
  perDay: number | null
}

/** One fixed window: starts with its first request. */
export interface Window {
  name: 'minute' | 'day'
  limit: number
  ms: number
  start: number
  used: number
}

export interface Caller {
  windows: [Window, Window]
  /** `RateLimit-Policy`, computed once. */
  policy: string
}

export interface ContractCeiling {
  server: Server
  /** Writes what the log holds and closes the database; call after the server has stopped. */
  close(): Promise<void>
}

/** The fixed plans' limits (the spec's `x-rate-limit-plans`); enterprise keys carry their own. */
const plans: Readonly<Record<string, readonly [number, number]>> = {
  free: [60, 1000],
  pro: [300, 10_000],
  business: [1000, 100_000],
}
const statuses = new Set<string>(petStatusValues)
export const strictInteger = /^[1-9][0-9]*$/
export const maxBody = 64 * 1024

const exposed =
  'Link, Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Deprecation, Sunset, X-Request-Id, Idempotent-Replayed'
export const deprecation = {
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</docs#operation/getPet>; rel="deprecation"; type="text/html", </docs#section/Deprecation-policy>; rel="sunset"; type="text/html", </v1/pets>; rel="successor-version"',
}

export type Headers = Record<string, string>

export class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

/**
 * Serves `GET /v1/pets`, `GET /v1/pets/{id}` and `POST /v1/pets` from the SQLite file at
 * `dbPath` (the service's schema and keys), logging to `logPath`.
 *
 * @example
 * ```ts
 * const { server, close } = createContractCeiling('/tmp/bench/contract.db', '/tmp/bench/contract.log')
 * server.listen(0, '127.0.0.1')
 * ```
 */
export function createContractCeiling(dbPath: string, logPath: string): ContractCeiling {
  const { db, pageStatement, byId, insert } = openPetDatabase(dbPath)
  const callers = loadKeys(db)
  const log = createLog(logPath)

  const store = groupCommit<Reply>(db, insert, {
    created(reply, pet) {
      reply.headers.location = `/v1/pets/${pet.id}`
      reply.send(201, petJson(pet.id, pet.doc))
    },
    failed: (reply, refusal) => reply.fail(refusal),
  })

  interface Reply {
    headers: Headers
    send(status: number, body: string): void
    fail(refusal: Refusal): void
  }

  const list = pageLister(pageStatement, createContractCursors())

  function get(petId: string, reply: Reply): void {
    Object.assign(reply.headers, deprecation)
    const id = Number(petId)
    if (!strictInteger.test(petId) || !Number.isSafeInteger(id)) {
      throw new Refusal(400, 'invalid_request', 'path parameter petId must be a positive integer')
    }
    const row = byId.get(id)
    if (row === undefined) throw new Refusal(404, 'not_found', `pet ${id} not found`)
    reply.send(200, petJson(row.id, row.doc))
  }

  function create(request: IncomingMessage, reply: Reply): void {
    const type = request.headers['content-type']
    if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
      throw new Refusal(415, 'unsupported_media_type', 'send the NewPet as application/json')
    }
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBody) chunks.push(chunk)
    })
    request.on('end', () => {
      if (size > maxBody) return reply.fail(new Refusal(413, 'payload_too_large', 'over 64 KiB'))
      const draft = readNewPet(Buffer.concat(chunks).toString('utf8'))
      if (draft instanceof Refusal) return reply.fail(draft)
      store(draft, reply)
    })
  }

  const server = createServer((request, response) => {
    const started = performance.now()
    const url = request.url ?? '/'
    const headers: Headers = {
      'x-request-id': randomUUID(),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    }
    if (request.headers.origin !== undefined) {
      headers['access-control-allow-origin'] = '*'
      headers['access-control-expose-headers'] = exposed
    }
    const reply: Reply = {
      headers,
      send(status, body) {
        headers['content-type'] = 'application/json; charset=utf-8'
        response.writeHead(status, headers).end(body)
        log(started, headers['x-request-id'] as string, request.method, url, status)
      },
      fail(refusal) {
        reply.send(refusal.status, errorBody(refusal))
      },
    }
    try {
      const mark = url.indexOf('?')
      const path = mark === -1 ? url : url.slice(0, mark)
      if (!path.startsWith('/v1/')) throw new Refusal(404, 'not_found', `no route ${path}`)
      const caller = identify(callers, request.headers.authorization, headers)
      count(caller, headers)
      if (path === '/v1/pets' && request.method === 'GET') {
        const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1))
        const page = list((name) => query.getAll(name))
        if (page.link !== undefined) headers.link = page.link
        reply.send(200, page.body)
      } else if (path === '/v1/pets' && request.method === 'POST') {
        create(request, reply)
      } else if (path.startsWith('/v1/pets/') && request.method === 'GET') {
        get(path.slice('/v1/pets/'.length), reply)
      } else {
        throw new Refusal(404, 'not_found', `no route ${path}`)
      }
    } catch (error) {
      reply.fail(
        error instanceof Refusal ? error : new Refusal(500, 'internal_error', 'internal error'),
      )
    }
  })
  return {
    server,
    close: async () => {
      await log.close()
      db.close()
    },
  }
}

/** A listPets page: its JSON and, when more pets follow, its next link. */
export interface ListedPage {
  body: string
  link?: string
}

/**
 * listPets by the ceiling's own cursors. `values` gives every value a query parameter was given;
 * the page throws a Refusal for a bad parameter or one given twice.
 */
export function pageLister(
  pageStatement: PetDatabase['pageStatement'],
  cursors: CursorCodec,
): (values: (name: string) => readonly string[]) => ListedPage {
  return (values) => {
    const limitValue = oneValue(values('limit'), 'limit') ?? '20'
    const status = oneValue(values('status'), 'status')
    const cursor = oneValue(values('cursor'), 'cursor')
    if (!strictInteger.test(limitValue) || Number(limitValue) > 100) {
      throw new Refusal(400, 'invalid_request', 'query parameter limit must be 1..100')
    }
    if (status !== undefined && !statuses.has(status)) {
      throw new Refusal(400, 'invalid_request', 'query parameter status is not a pet status')
    }
    const after = cursor === undefined ? 0 : cursors.decode(cursor)
    if (after === undefined) throw new Refusal(400, 'invalid_request', 'query parameter cursor')
    const limit = Number(limitValue)
    const statement = pageStatement(limit + 1, status !== undefined)
    const rows = status === undefined ? statement.all(after) : statement.all(after, status)
    if (rows.length <= limit) return { body: pageJson(rows) }
    rows.length = limit
    const filter = status === undefined ? '' : `&status=${status}`
    const next = cursors.encode((rows[limit - 1] as StoredPet).id)
    return {
      body: pageJson(rows),
      link: `</v1/pets?limit=${limit}${filter}&cursor=${next}>; rel="next"`,
    }
  }
}

/** A query parameter's one value; a parameter given twice is refused. */
function oneValue(given: readonly string[], name: string): string | undefined {
  if (given.length > 1) throw new Refusal(400, 'invalid_request', `${name} given twice`)
  return given[0]
}

/** How a ceiling answers the creates of a group once it committed, or failed. */
export interface GroupAnswers<R> {
  created(reply: R, pet: StoredPet): void
  failed(reply: R, refusal: Refusal): void
}

/**
 * Group commit: the creates of one event-loop turn go in one durable transaction, each answered
 * after it, and each commit is published on the service's commit channel, as the service's are.
 * Returns what takes a create and the reply it is answered on.
 */
export function groupCommit<R>(
  db: Database.Database,
  insert: Database.Statement<[string], { id: number }>,
  answers: GroupAnswers<R>,
): (draft: NewPet, reply: R) => void {
  let pending: { draft: NewPet; reply: R }[] = []
  const insertAll = db.transaction((batch: typeof pending) =>
    batch.map(({ draft }): StoredPet => {
      const doc = draftDocument(draft)
      return { id: (insert.get(doc) as { id: number }).id, doc }
    }),
  )
  const commit = () => {
    const batch = pending
    pending = []
    let pets: StoredPet[]
    const startedAt = commitStarted()
    try {
      pets = insertAll(batch)
    } catch {
      const refusal = new Refusal(500, 'internal_error', 'not stored')
      for (const { reply } of batch) answers.failed(reply, refusal)
      return
    }
    commitDurable('sqlite', batch.length, startedAt)
    batch.forEach(({ reply }, i) => {
      answers.created(reply, pets[i] as StoredPet)
    })
  }
  return (draft, reply) => {
    if (pending.length === 0) setImmediate(commit)
    pending.push({ draft, reply })
  }
}

export function errorBody(refusal: Refusal): string {
  return JSON.stringify({ code: refusal.code, message: refusal.message, status: refusal.status })
}

/** Unrevoked keys by their sha256 (hex), each with its windows. */
export function loadKeys(db: Database.Database): Map<string, Caller> {
  const rows = db
    .prepare<[], KeyRow>(
      `SELECT key_hash AS keyHash, plan, per_minute AS perMinute, per_day AS perDay
       FROM api_keys WHERE revoked_at IS NULL`,
    )
    .all()
  const callers = new Map<string, Caller>()
  for (const row of rows) {
    const [perMinute, perDay] = plans[row.plan] ?? [row.perMinute ?? 0, row.perDay ?? 0]
    callers.set(row.keyHash, {
      windows: [
        { name: 'minute', limit: perMinute, ms: 60_000, start: 0, used: 0 },
        { name: 'day', limit: perDay, ms: 86_400_000, start: 0, used: 0 },
      ],
      policy: `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`,
    })
  }
  return callers
}

const bearerScheme = /^bearer +(\S+)$/i

export function identify(
  callers: Map<string, Caller>,
  authorization: string | undefined,
  headers: Headers,
): Caller {
  const token = authorization === undefined ? null : bearerScheme.exec(authorization)
  const caller = token === null ? undefined : callers.get(hash('sha256', token[1] as string, 'hex'))
  if (caller !== undefined) return caller
  headers['www-authenticate'] =
    authorization === undefined
      ? 'Bearer realm="petstore"'
      : 'Bearer realm="petstore", error="invalid_token", error_description="the API key is not valid"'
  throw new Refusal(401, 'unauthorized', 'send Authorization: Bearer <a valid key>')
}

/**
 * Counts the request in both windows and writes the rate-limit headers: `X-RateLimit-*` for the
 * window with the fewest requests left (on a tie the later reset), `RateLimit` for both.
 */
export function count(caller: Caller, headers: Headers): void {
  const now = Date.now()
  let field = ''
  let reported: Window | undefined
  let reportedLeft = 0
  let refused = false
  for (const window of caller.windows) {
    if (now >= window.start + window.ms) {
      window.start = now
      window.used = 0
    }
    window.used++
    const left = Math.max(0, window.limit - window.used)
    if (window.used > window.limit) refused = true
    const resetMs = window.start + window.ms - now
    field += `${field === '' ? '' : ', '}"${window.name}";r=${left};t=${Math.max(1, Math.ceil(resetMs / 1000))}`
    if (
      reported === undefined ||
      left < reportedLeft ||
      (left === reportedLeft && window.start + window.ms > reported.start + reported.ms)
    ) {
      reported = window
      reportedLeft = left
    }
  }
  const window = reported as Window
  const resetAt = window.start + window.ms
  headers['x-ratelimit-limit'] = String(window.limit)
  headers['x-ratelimit-remaining'] = String(reportedLeft)
  headers['x-ratelimit-reset'] = String(Math.ceil(resetAt / 1000))
  headers['ratelimit-policy'] = caller.policy
  headers.ratelimit = field
  if (refused) {
    headers['retry-after'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)))
    throw new Refusal(429, 'rate_limited', 'rate limit exceeded')
  }
}

/** U+0000-U+001F or U+007F anywhere in `text`. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** The NewPet of a body, checked by hand, or why not. */
export function readNewPet(text: string): NewPet | Refusal {
  const invalid = (message: string) => new Refusal(400, 'invalid_request', message)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return invalid('the body is not JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid('the body must be a NewPet object')
  }
  const { name, categoryId, status, ...rest } = body as Record<string, unknown>
  const unknown = Object.keys(rest)[0]
  if (unknown !== undefined) return invalid(`body.${unknown} is not a NewPet property`)
  if (
    typeof name !== 'string' ||
    name.trim() === '' ||
    [...name].length > 100 ||
    hasControlCharacter(name) ||
    !name.isWellFormed()
  ) {
    return invalid('body.name must be 1..100 characters, not all spaces')
  }
  if (typeof categoryId !== 'number' || !Number.isSafeInteger(categoryId) || categoryId < 1) {
    return invalid('body.categoryId must be an integer from 1')
  }
  if (status === undefined) return { name, categoryId }
  if (typeof status !== 'string' || !statuses.has(status)) {
    return invalid('body.status is not a pet status')
  }
  return { name, categoryId, status: status as PetStatus }
}

/** One JSON line per request, gathered over an event-loop turn and written to a file at once. */
export function createLog(path: string) {
  const file = createWriteStream(path, { flags: 'a' })
  let lines = ''
  const flush = () => {
    if (lines === '') return
    file.write(lines)
    lines = ''
  }
  const write = (
    started: number,
    requestId: string,
    method: string | undefined,
    url: string,
    status: number,
  ) => {
    if (lines === '') setImmediate(flush)
    lines += `${JSON.stringify({
      level: 30,
      time: Date.now(),
      reqId: requestId,
      method,
      url,
      statusCode: status,
      responseTime: performance.now() - started,
      msg: 'request completed',
    })}\n`
  }
  write.close = () =>
    new Promise<void>((resolve) => {
      flush()
      file.end(resolve)
    })
  return write
}
