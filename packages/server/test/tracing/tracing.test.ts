/**
 * Traces end to end, with real parts: the built server as an operator runs it (a child process
 * configured by `OTEL_*` only), exporting over OTLP/HTTP to a receiver the test runs, which
 * decodes what arrives (protobuf, or JSON). A request's `traceparent` is continued by the
 * server span, the store and a Redis limiter make its child spans, and the completion log line
 * names the same trace; without the configuration nothing is loaded and nothing exported.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../../src/auth/api-key.js'
import { specDocument } from '../../src/spec/document.js'
import { specBasePath, specOperations } from '../../src/spec/operations.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { type PrivateRedis, startPrivateRedis } from '../backends/processes.js'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { call, newPet, petOf, postJson } from '../helpers.js'
import {
  inSchema,
  postgresUrl,
  redisServerInstalled,
  schemaFactory,
  serviceAvailable,
} from '../services.js'
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js'

const loadedModules = fileURLToPath(new URL('./loaded-modules.mjs', import.meta.url))
const SERVER = 2
const CLIENT = 3
const ERROR = 2

/** The route of an operation as the spec writes it, base path included. */
function specRoute(operationId: string): string {
  const operation = specOperations.find((candidate) => candidate.operationId === operationId)
  if (operation === undefined) throw new Error(`the spec has no operation ${operationId}`)
  return `${specBasePath(specDocument)}${operation.path}`
}

/** A fresh W3C trace context: the caller's trace id and span id, and its `traceparent`. */
function callerContext() {
  const traceId = randomBytes(16).toString('hex')
  const parentId = randomBytes(8).toString('hex')
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` }
}

/** The completion log line of the answer whose `X-Request-Id` is `requestId`. */
async function completionLine(child: Child, requestId: string): Promise<Record<string, unknown>> {
  await child.waitFor(`"requestId":"${requestId}"`)
  const line = child
    .stdout()
    .split('\n')
    .find((candidate) => candidate.includes(`"requestId":"${requestId}"`))
  return JSON.parse(line ?? '{}') as Record<string, unknown>
}

async function stop(child: Child | undefined): Promise<void> {
  if (child === undefined) return
  child.process.kill('SIGTERM')
  await child.exited
}

const modulesLoaded = (child: Child) =>
  Number(/opentelemetry modules loaded: (\d+)/.exec(child.stderr())?.[1] ?? Number.NaN)

const serverSpan = (spans: readonly ReceivedSpan[]) => {
  const found = spans.filter((span) => span.kind === SERVER)
  expect(found, 'one server span').toHaveLength(1)
  return found[0] as ReceivedSpan
}

describe('tracing over OTLP/HTTP protobuf, on SQLite', () => {
  let receiver: OtlpReceiver
  let child: Child
  let dir: string
  let auth: { authorization: string }

  beforeAll(async () => {
    requireBuiltServer()
    receiver = await startOtlpReceiver()
    dir = mkdtempSync(join(tmpdir(), 'petstore-traces-'))
    const dbPath = join(dir, 'petstore.db')
    child = await startChild({
      PETSTORE_DB: dbPath,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'petstore-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    })
    const store = openSqliteStore(dbPath)
    const { rawKey } = await issueApiKey(store.keys, {
      plan: 'enterprise',
      perMinute: 100_000,
      perDay: 1_000_000,
    })
    await store.close()
    auth = { authorization: `Bearer ${rawKey}` }
  })

  afterAll(async () => {
    await stop(child)
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('continues the caller trace: server span, store span and log line name it', async () => {
    const created = petOf(await postJson(`${child.url}/v1/pets`, newPet(), auth))
    const caller = callerContext()
    const reply = await call(`${child.url}/v1/pets/${created.id}`, {
      headers: { ...auth, traceparent: caller.traceparent, tracestate: 'caller=1' },
    })
    expect(reply.status).toBe(200)
    const spans = await receiver.waitForTrace(caller.traceId, 2)
    const server = serverSpan(spans)
    const route = specRoute('getPet')
    const port = Number(new URL(child.url).port)
    expect(server).toMatchObject({
      name: `GET ${route}`,
      parentSpanId: caller.parentId,
      statusCode: 0,
      contentType: 'application/x-protobuf',
      resource: {
        'service.name': 'petstore-under-test',
        'service.instance.id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    })
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': route,
      'http.response.status_code': 200,
      'url.path': `/v1/pets/${created.id}`,
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': port,
    })
    const store = spans.find(
      (span) =>
        span.parentSpanId === server.spanId && span.attributes['db.operation.name'] === 'get',
    )
    expect(store, 'a child span for the store read').toMatchObject({
      name: 'get pets',
      kind: CLIENT,
      attributes: { 'db.system.name': 'sqlite', 'db.collection.name': 'pets' },
    })

    const line = await completionLine(child, reply.headers.get('x-request-id') ?? '')
    expect(line).toMatchObject({
      trace_id: caller.traceId,
      span_id: server.spanId,
      trace_flags: '01',
    })
  })

  it('keeps the request context into a handler that ran after the body was read', async () => {
    const caller = callerContext()
    const reply = await postJson(`${child.url}/v1/pets`, newPet(), {
      ...auth,
      traceparent: caller.traceparent,
    })
    expect(reply.status).toBe(201)
    const spans = await receiver.waitForTrace(caller.traceId, 2)
    const server = serverSpan(spans)
    expect(server.name).toBe(`POST ${specRoute('createPet')}`)
    expect(server.attributes['http.response.status_code']).toBe(201)
    expect(spans.find((span) => span.parentSpanId === server.spanId)).toMatchObject({
      name: 'create pets',
      attributes: { 'db.operation.name': 'create', 'db.system.name': 'sqlite' },
    })
  })

  it('starts a trace of its own without traceparent, found from the log line', async () => {
    const reply = await call(`${child.url}/v1/no-such-path`, { headers: auth })
    expect(reply.status).toBe(404)
    const line = await completionLine(child, reply.headers.get('x-request-id') ?? '')
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/)
    const [span] = await receiver.waitForTrace(String(line.trace_id), 1)
    // No route matched: named by the method alone, and no http.route.
    expect(span).toMatchObject({ name: 'GET', kind: SERVER, parentSpanId: '', statusCode: 0 })
    expect(span?.spanId).toBe(line.span_id)
    expect(span?.attributes).not.toHaveProperty('http.route')
    expect(span?.attributes['http.response.status_code']).toBe(404)
  })
})

describe('tracing over OTLP/HTTP JSON', () => {
  let receiver: OtlpReceiver
  let dir: string

  beforeAll(async () => {
    requireBuiltServer()
    receiver = await startOtlpReceiver()
    dir = mkdtempSync(join(tmpdir(), 'petstore-traces-'))
  })

  afterAll(async () => {
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('sends http/json, and exports what is still buffered when it stops', async () => {
    const child = await startChild({
      PETSTORE_DB: join(dir, 'petstore.db'),
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      NODE_OPTIONS: `--import=${loadedModules}`,
    })
    try {
      const caller = callerContext()
      const reply = await call(`${child.url}/healthz`, {
        headers: { traceparent: caller.traceparent },
      })
      expect(reply.status).toBe(200)
      // The batch waits 5 s by default: only the flush at shutdown sends it this soon.
      await stop(child)
      await expect(child.exited).resolves.toEqual({ code: 0, signal: null })
      const spans = await receiver.waitForTrace(caller.traceId, 1, 1000)
      expect(serverSpan(spans)).toMatchObject({
        name: 'GET /healthz',
        parentSpanId: caller.parentId,
        contentType: 'application/json',
        resource: { 'service.name': 'petstore' },
      })
      expect(receiver.requests).toContain('POST /v1/traces application/json')
      expect(modulesLoaded(child)).toBeGreaterThan(0)
    } finally {
      await stop(child)
    }
  })
})

describe('tracing off', () => {
  let receiver: OtlpReceiver
  let dir: string
  let child: Child | undefined

  beforeAll(async () => {
    requireBuiltServer()
    receiver = await startOtlpReceiver()
    dir = mkdtempSync(join(tmpdir(), 'petstore-traces-'))
  })

  afterEach(async () => {
    await stop(child)
    child = undefined
  })

  afterAll(async () => {
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it.each([
    ['no OTEL_* variable', {}],
    // Set, but saying nothing about where spans go: still off.
    ['OTEL_SERVICE_NAME alone', { OTEL_SERVICE_NAME: 'petstore' }],
    [
      'OTEL_SDK_DISABLED=true',
      { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'RECEIVER' },
    ],
    [
      'OTEL_TRACES_EXPORTER=none',
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'RECEIVER' },
    ],
  ])('with %s: loads nothing, exports nothing, logs no trace id', async (_name, otel) => {
    const env = Object.fromEntries(
      Object.entries(otel as Record<string, string>).map(([name, value]) => [
        name,
        value === 'RECEIVER' ? receiver.url : value,
      ]),
    )
    child = await startChild({
      PETSTORE_DB: join(dir, `${randomBytes(4).toString('hex')}.db`),
      NODE_OPTIONS: `--import=${loadedModules}`,
      ...env,
    })
    const { traceparent } = callerContext()
    const reply = await call(`${child.url}/v1/pets`, { headers: { traceparent } })
    expect(reply.status).toBe(401)
    const line = await completionLine(child, reply.headers.get('x-request-id') ?? '')
    expect(line).toMatchObject({ statusCode: 401 })
    expect(line).not.toHaveProperty('trace_id')
    expect(line).not.toHaveProperty('span_id')
    await stop(child)
    expect(modulesLoaded(child)).toBe(0)
    expect(receiver.requests).toEqual([])
  })
})

describe('tracing with the collector gone', () => {
  it('says so in the log, once, and still stops cleanly and soon', async () => {
    const gone = await startOtlpReceiver()
    await gone.close()
    const dir = mkdtempSync(join(tmpdir(), 'petstore-traces-'))
    const child = await startChild({
      PETSTORE_DB: join(dir, 'petstore.db'),
      OTEL_EXPORTER_OTLP_ENDPOINT: gone.url,
    })
    try {
      const reply = await call(`${child.url}/healthz`)
      expect(reply.status).toBe(200)
      const stopping = Date.now()
      await stop(child)
      expect(Date.now() - stopping).toBeLessThan(5000)
      await expect(child.exited).resolves.toEqual({ code: 0, signal: null })
      const warnings = child
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"msg":"traces: '))
      expect(warnings).toHaveLength(1)
      expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({ level: 40 })
    } finally {
      await stop(child)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('tracing configured, sampling off', () => {
  it('names the trace in the log line, unsampled, and exports nothing', async () => {
    const receiver = await startOtlpReceiver()
    const dir = mkdtempSync(join(tmpdir(), 'petstore-traces-'))
    const child = await startChild({
      PETSTORE_DB: join(dir, 'petstore.db'),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'always_off',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    })
    try {
      const caller = callerContext()
      const reply = await call(`${child.url}/v1/pets`, {
        headers: { traceparent: caller.traceparent },
      })
      const line = await completionLine(child, reply.headers.get('x-request-id') ?? '')
      expect(line).toMatchObject({ trace_id: caller.traceId, trace_flags: '00' })
      expect(line.span_id).toMatch(/^[0-9a-f]{16}$/)
      await stop(child)
      expect(receiver.requests).toEqual([])
    } finally {
      await stop(child)
      await receiver.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('PETSTORE_TRACE_SAMPLING_FROM=keys', () => {
  it('follows the sampling flag of a caller with a known key only, and of anyone without it', async () => {
    const receiver = await startOtlpReceiver()
    const dir = mkdtempSync(join(tmpdir(), 'petstore-traces-'))
    // A root is never sampled: only a followed caller's flag can make a request sampled.
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    }
    const store = openSqliteStore(join(dir, 'petstore.db'))
    const { rawKey } = await issueApiKey(store.keys, { plan: 'pro' })
    await store.close()
    const auth = { authorization: `Bearer ${rawKey}` }
    /** The completion line of a request with a sampled caller's traceparent. */
    const traced = async (child: Child, headers: Record<string, string> = {}) => {
      const caller = callerContext()
      const reply = await call(`${child.url}/v1/pets`, {
        headers: { ...headers, traceparent: caller.traceparent },
      })
      const line = await completionLine(child, reply.headers.get('x-request-id') ?? '')
      return { caller, line }
    }
    let child: Child | undefined
    try {
      child = await startChild({
        PETSTORE_DB: join(dir, 'petstore.db'),
        PETSTORE_TRACE_SAMPLING_FROM: 'keys',
        ...env,
      })
      const anonymous = await traced(child)
      // A trace of the server's own, sampled as a root is: never, here.
      expect(anonymous.line).toMatchObject({ trace_flags: '00' })
      expect(anonymous.line.trace_id).not.toBe(anonymous.caller.traceId)
      const forged = await traced(child, { authorization: `Bearer psk_live_${'0'.repeat(48)}` })
      expect(forged.line).toMatchObject({ trace_flags: '00' })
      // Once the key has been looked up, its caller's flag is followed.
      await call(`${child.url}/v1/pets`, { headers: auth })
      const holder = await traced(child, auth)
      expect(holder.line).toMatchObject({ trace_id: holder.caller.traceId, trace_flags: '01' })
      await receiver.waitForTrace(holder.caller.traceId, 1)
      await stop(child)
      child = await startChild({ PETSTORE_DB: join(dir, 'petstore.db'), ...env })
      // The default, anyone: the anonymous caller's flag decides.
      const followed = await traced(child)
      expect(followed.line).toMatchObject({ trace_id: followed.caller.traceId, trace_flags: '01' })
    } finally {
      await stop(child)
      await receiver.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

const backendsAvailable =
  (await serviceAvailable('PostgreSQL', 'test/tracing/tracing.test.ts')) &&
  redisServerInstalled('test/tracing/tracing.test.ts')

describe.runIf(backendsAvailable)('tracing on PostgreSQL and Redis', () => {
  const schemas = schemaFactory()
  let receiver: OtlpReceiver
  let redis: PrivateRedis
  let child: Child
  let auth: { authorization: string }

  beforeAll(async () => {
    requireBuiltServer()
    receiver = await startOtlpReceiver()
    const schema = await schemas.create()
    const url = inSchema(postgresUrl, schema)
    redis = await startPrivateRedis()
    child = await startChild({
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    })
    const store = await openPostgresStore({ url, size: 1, schema })
    const { rawKey } = await issueApiKey(store.keys, {
      plan: 'enterprise',
      perMinute: 100_000,
      perDay: 1_000_000,
    })
    await store.close()
    auth = { authorization: `Bearer ${rawKey}` }
  })

  afterAll(async () => {
    await stop(child)
    await redis?.stop()
    await receiver?.close()
    await schemas.dropAll()
  })

  it('makes child spans for the PostgreSQL store and the Redis limiter', async () => {
    const caller = callerContext()
    const reply = await call(`${child.url}/v1/pets?limit=5`, {
      headers: { ...auth, traceparent: caller.traceparent },
    })
    expect(reply.status).toBe(200)
    const spans = await receiver.waitForTrace(caller.traceId, 4)
    const server = serverSpan(spans)
    expect(server.name).toBe(`GET ${specRoute('listPets')}`)
    const children = spans.filter((span) => span.parentSpanId === server.spanId)
    expect(children.map((span) => span.attributes['db.system.name']).sort()).toEqual([
      'postgresql',
      'postgresql',
      'redis',
    ])
    expect(children).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'findActiveByHash api_keys',
          kind: CLIENT,
          attributes: expect.objectContaining({ 'db.operation.name': 'findActiveByHash' }),
        }),
        expect.objectContaining({ name: 'list pets', kind: CLIENT }),
        expect.objectContaining({
          name: 'consume',
          kind: CLIENT,
          attributes: { 'db.system.name': 'redis', 'db.operation.name': 'consume' },
        }),
      ]),
    )
    expect(children.every((span) => span.statusCode !== ERROR)).toBe(true)
  })

  it('marks the spans of a 503 answered while Redis is lost as errors', async () => {
    await redis.stop()
    try {
      const caller = callerContext()
      const reply = await call(`${child.url}/v1/pets?limit=5`, {
        headers: { ...auth, traceparent: caller.traceparent },
      })
      expect(reply.status).toBe(503)
      const spans = await receiver.waitForTrace(caller.traceId, 2)
      const server = serverSpan(spans)
      expect(server).toMatchObject({
        statusCode: ERROR,
        attributes: expect.objectContaining({
          'http.response.status_code': 503,
          'error.type': '503',
        }),
      })
      expect(spans.find((span) => span.name === 'consume')).toMatchObject({
        parentSpanId: server.spanId,
        statusCode: ERROR,
      })
    } finally {
      await redis.start()
    }
  })
})
