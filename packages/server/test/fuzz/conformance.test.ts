/**
 * Issue 23: every response conforms, proven by generation. For every operation the spec
 * declares, fast-check generates valid requests and requests broken in one way (see
 * `requests.ts`), sends them over HTTP to a real server on a real SQLite file, and checks every
 * answer against the spec with `expectSpecResponse`: a declared status, its body schema and its
 * declared headers. No answer may be a 5xx; a valid request must be accepted and a broken one
 * refused with the status the spec gives for that fault.
 *
 * The seed is fixed, so a failure reproduces; `PETSTORE_FUZZ_RUNS` and `PETSTORE_FUZZ_SEED`
 * change the run (packages/server/README.md, "Fuzzing").
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bodyLimit } from '../../src/errors.js'
import { specOperations } from '../../src/spec/operations.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import {
  call,
  expectSpecResponse,
  postJson,
  type Reply,
  startTestServer,
  type TestServer,
} from '../helpers.js'
import { type Auth, type CaseContext, type FuzzCase, requestsFor } from './requests.js'

const runs = Number(process.env.PETSTORE_FUZZ_RUNS ?? 1500)
const seed = Number(process.env.PETSTORE_FUZZ_SEED ?? 42)

let dir: string
let server: TestServer
const keys = { valid: '', limited: '', revoked: '' }
/** `next` links the server issued, per operation: valid requests follow them. */
const issuedLinks = new Map<string, string[]>()
const issued = new Set<string>()
/** Header parameter values sent before: a repeated `Idempotency-Key` may be `422`. */
const sentHeaders = new Set<string>()

beforeAll(async () => {
  // fast-check builds its table of every code point the first time a binary string arbitrary is
  // made, blocking the event loop for seconds: made now, before any connection is kept alive, the
  // server cannot close one the client then reuses (a reset) while the cases are built.
  fc.string({ unit: 'binary', maxLength: 1 })
  dir = mkdtempSync(join(tmpdir(), 'petstore-fuzz-'))
  const dbPath = join(dir, 'petstore.db')
  // One load balancer hop: each case names its own client address, so requests without a key
  // are limited per case rather than all refused once one address used its free quota. Building
  // a case's arbitraries can block this process for seconds on a loaded machine: idle
  // connections stay open past that, so the server never closes one the client is reusing.
  server = await startTestServer({ dbPath, trustProxy: 1, keepAliveSeconds: 120 })
  keys.valid = await server.issueKey({ plan: 'enterprise', perMinute: 1e6, perDay: 1e6 })
  keys.limited = await server.issueKey({ plan: 'enterprise', perMinute: 3, perDay: 3 })
  keys.revoked = await server.issueKey({ plan: 'free' })
  const store = openSqliteStore(dbPath)
  await store.keys.revoke((await store.keys.list()).at(-1)?.id ?? '')
  await store.close()
  const auth = { authorization: `Bearer ${keys.valid}` }
  for (let i = 1; i <= 25; i++) {
    expect(
      (await postJson(`${server.api}/pets`, { name: `Pet ${i}`, categoryId: i }, auth)).status,
    ).toBe(201)
  }
  await discoverIssuedParameters(auth)
})

afterAll(async () => {
  await server?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/**
 * A parameter the server writes into `next` links without the client having sent it (an opaque
 * cursor) is the server's to issue: valid requests only echo issued values. Found by asking each
 * list operation for its smallest page.
 */
async function discoverIssuedParameters(auth: Record<string, string>): Promise<void> {
  for (const operation of specOperations) {
    if (operation.method !== 'GET' || operation.parameters.some((p) => p.in === 'path')) continue
    const sent = new URLSearchParams()
    for (const parameter of operation.parameters) {
      if (parameter.in === 'query' && parameter.schema.type === 'integer') {
        sent.set(parameter.name, String(parameter.schema.minimum ?? 1))
      }
    }
    const reply = await call(`${server.api}${operation.path}?${sent}`, { headers: auth })
    const next = nextLink(reply)
    if (next === undefined) continue
    for (const name of new URL(next, server.url).searchParams.keys()) {
      if (!sent.has(name)) issued.add(name)
    }
    remember(operation.operationId, next)
  }
}

function nextLink(reply: Reply): string | undefined {
  return /<([^>]+)>; rel="next"/.exec(reply.headers.get('link') ?? '')?.[1]
}

function remember(operationId: string, link: string): void {
  const links = issuedLinks.get(operationId) ?? []
  if (links.length < 100) links.push(link)
  issuedLinks.set(operationId, links)
}

function authorization(auth: Auth): string | undefined {
  switch (auth.kind) {
    case 'valid':
      return `${auth.scheme} ${keys.valid}`
    case 'limited':
      return `Bearer ${keys.limited}`
    case 'revoked':
      return `Bearer ${keys.revoked}`
    case 'unknown':
      return `Bearer ${auth.token}`
    case 'malformed':
      return auth.header
    case 'absent':
      return undefined
  }
}

function urlOf(fuzz: FuzzCase): string {
  const links = issuedLinks.get(fuzz.operation.operationId) ?? []
  if (fuzz.follow !== undefined && links.length > 0) {
    return new URL(links[fuzz.follow % links.length] as string, server.url).href
  }
  const path = fuzz.operation.path.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => fuzz.path[name] ?? '',
  )
  const query = fuzz.query.map(([name, value]) => `${encodeURIComponent(name)}=${value}`).join('&')
  return `${server.api}${path}${query === '' ? '' : `?${query}`}`
}

async function send(fuzz: FuzzCase): Promise<Reply> {
  const headers: Record<string, string> = { 'x-forwarded-for': fuzz.client, ...fuzz.headers }
  const credentials = authorization(fuzz.auth)
  if (credentials !== undefined) headers.authorization = credentials
  if (fuzz.body?.contentType !== undefined) headers['content-type'] = fuzz.body.contentType
  return call(urlOf(fuzz), {
    method: fuzz.operation.method,
    headers,
    ...(fuzz.body === undefined ? {} : { body: fuzz.body.bytes }),
  })
}

/** Statuses a valid request may get: success, or what depends on state rather than input. */
function acceptedStatuses(fuzz: FuzzCase, repeated: boolean): number[] {
  const { operation } = fuzz
  const statuses = Object.keys(operation.responses)
    .map(Number)
    .filter((s) => s < 300)
  // A valid request may still find its resources in another state than it needs: no such pet
  // (404), a pet already ordered (409), a stale If-Match (412), where the operation says so.
  statuses.push(...stateStatuses.filter((status) => String(status) in operation.responses))
  if (fuzz.auth.kind === 'limited') statuses.push(429)
  if (repeated) statuses.push(409, 422)
  return statuses
}

/** Refusals that depend on the state of the resources a request names, not on the request. */
const stateStatuses = [404, 409, 412]

const tally = {
  requests: 0,
  valid: 0,
  broken: 0,
  nonConforming: 0,
  serverErrors: 0,
  statuses: new Map<number, number>(),
  operations: new Map<string, { valid: number; broken: number }>(),
}

function record(fuzz: FuzzCase, reply: Reply): void {
  tally.requests++
  if (reply.status >= 500) tally.serverErrors++
  tally.statuses.set(reply.status, (tally.statuses.get(reply.status) ?? 0) + 1)
  const seen = tally.operations.get(fuzz.operation.operationId) ?? { valid: 0, broken: 0 }
  const broken = fuzz.mutation !== undefined
  if (broken) seen.broken++
  else seen.valid++
  tally.operations.set(fuzz.operation.operationId, seen)
  if (broken) tally.broken++
  else tally.valid++
}

async function check(fuzz: FuzzCase): Promise<void> {
  const headerValues = fuzz.operation.parameters
    .filter((p) => p.in === 'header' && p.name in fuzz.headers && p.name !== fuzz.replaced)
    .map((p) => `${p.name}=${(fuzz.headers[p.name] ?? '').replace(/^"(.*)"$/, '$1')}`)
  const repeated = headerValues.some((value) => sentHeaders.has(value))
  const reply = await send(fuzz)
  record(fuzz, reply)
  const what = `${fuzz.operation.operationId} ${fuzz.mutation ?? 'valid'} (${fuzz.auth.kind})`
  try {
    expect(reply.status, `${what}: ${reply.text}`).toBeLessThan(500)
    expectSpecResponse(reply, fuzz.operation.operationId)
    const expected =
      fuzz.refusedWith.length > 0 ? fuzz.refusedWith : acceptedStatuses(fuzz, repeated)
    expect(expected, `${what}: status ${reply.status} ${reply.text}`).toContain(reply.status)
    if (fuzz.replaced !== undefined) {
      expect(reply.headers.get(fuzz.replaced), `${what}: echoed`).not.toBe(
        fuzz.headers[fuzz.replaced],
      )
    }
  } catch (error) {
    tally.nonConforming++
    throw error
  }
  if (reply.status < 300) for (const value of headerValues) sentHeaders.add(value)
  const next = nextLink(reply)
  if (next !== undefined) remember(fuzz.operation.operationId, next)
}

it(
  'answers every generated request to every operation as the spec declares',
  async () => {
    const started = performance.now()
    const context: CaseContext = {
      issued,
      echoed: new Set(
        specOperations.flatMap((operation) =>
          operation.parameters
            .filter((p) => p.in === 'header')
            .filter((p) =>
              Object.values(operation.responses).some((response) =>
                Object.keys(response.headers).some((h) => h.toLowerCase() === p.name.toLowerCase()),
              ),
            )
            .map((p) => p.name),
        ),
      ),
      maxBodyBytes: bodyLimit,
    }
    const cases = fc.oneof(...specOperations.map((operation) => requestsFor(operation, context)))
    try {
      await fc.assert(fc.asyncProperty(cases, check), { numRuns: runs, seed, endOnFailure: true })
    } finally {
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      const statuses = [...tally.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`)
      console.log(
        `fuzz: ${tally.requests} requests (${tally.valid} valid, ${tally.broken} broken) over ` +
          `${tally.operations.size} operations, seed ${seed}, ${seconds} s: ` +
          `${tally.nonConforming} non-conforming, ${tally.serverErrors} 5xx [${statuses.join(' ')}]`,
      )
    }
    expect(tally.nonConforming).toBe(0)
    expect(tally.serverErrors).toBe(0)
    expect([...tally.operations.keys()].sort()).toEqual(
      specOperations.map((operation) => operation.operationId).sort(),
    )
    for (const [operationId, seen] of tally.operations) {
      expect(seen.valid, `${operationId}: valid cases`).toBeGreaterThan(0)
      expect(seen.broken, `${operationId}: broken cases`).toBeGreaterThan(0)
    }
  },
  30_000 + runs * 100,
)
