/**
 * The metrics listener as Prometheus sees it: the built server (one process on SQLite, then
 * `PETSTORE_WORKERS=2` on PostgreSQL + Redis) takes a known load, Debian's Prometheus scrapes its
 * metrics port every second, and the counts per route and status read back through the query API
 * are exactly the requests sent, those refused below the routes included. Routes are the spec's
 * path templates with the base path.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../../src/auth/api-key.js'
import { specDocument } from '../../src/spec/document.js'
import { specBasePath, specOperations } from '../../src/spec/operations.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { KeyStore } from '../../src/store/store.js'
import { type PrivateRedis, startPrivateRedis } from '../backends/processes.js'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { call, newPet, petOf } from '../helpers.js'
import {
  commandInstalled,
  inSchema,
  postgresUrl,
  redisServerInstalled,
  schemaFactory,
  serviceAvailable,
} from '../services.js'
import {
  byLabels,
  prometheusBin,
  promtool,
  promtoolBin,
  type RunningPrometheus,
  startPrometheus,
} from './prometheus.js'

const basePath = specBasePath(specDocument)
const operation = (operationId: string) => {
  const found = specOperations.find((entry) => entry.operationId === operationId)
  if (found === undefined) throw new Error(`the spec has no operation ${operationId}`)
  return found
}
const getPet = operation('getPet')
const listPets = operation('listPets')
const createPet = operation('createPet')
/** The route label of an operation: its spec path with the base path. */
const route = (op: { path: string }) => `${basePath}${op.path}`
const petUrl = (api: string, id: string | number) =>
  `${api}${basePath}${getPet.path.replace('{petId}', String(id))}`

interface Keys {
  /** Never limited. */
  unlimited: string
  /** One request a minute and a day: the next ones are 429 `rate_limited`. */
  single: string
}

async function issueKeys(keys: KeyStore): Promise<Keys> {
  const bearer = async (perMinute: number, perDay: number) =>
    `Bearer ${(await issueApiKey(keys, { plan: 'enterprise', perMinute, perDay })).rawKey}`
  return { unlimited: await bearer(1_000_000, 1_000_000), single: await bearer(1, 1) }
}

/** Writes `head` on a connection of its own; the status of the raw answer it gets. */
function rawStatus(api: string, head: string): Promise<number> {
  const { hostname, port } = new URL(api)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])))
    // Not ended: a half-closed socket is closed before an answer that waits for Redis.
    socket.write(head)
  })
}

/** Node's parser refuses a head over 16 KiB with a raw 431. */
const oversizedHead = (api: string) =>
  rawStatus(
    api,
    `GET ${route(listPets)} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  )

/** A head that never ends is answered 408 after `PETSTORE_REQUEST_TIMEOUT_SECONDS`. */
const stalledHead = (api: string) =>
  rawStatus(api, `GET ${route(listPets)} HTTP/1.1\r\nHost: x\r\n`)

/** What a test server needs for the load: a short request timeout, for the 408. */
const serverEnv = { PETSTORE_METRICS_PORT: '0', PETSTORE_REQUEST_TIMEOUT_SECONDS: '1' }

const sent = { found: 6, listed: 4, missing: 3, unrouted: 2, limited: 2 }

/**
 * Sends the known load, each batch in parallel (so several connections, and under the cluster
 * several workers, serve it), and returns the count expected per `method route status`.
 */
async function sendKnownLoad(api: string, keys: Keys): Promise<Record<string, number>> {
  const auth = (key: string) => ({ headers: { authorization: key } })
  const created = await call(`${api}${basePath}${createPet.path}`, {
    method: 'POST',
    headers: { authorization: keys.unlimited, 'content-type': 'application/json' },
    body: JSON.stringify(newPet()),
  })
  expect(created.status).toBe(201)
  const { id } = petOf(created)
  const statuses = async (urls: string[], key: string) =>
    (await Promise.all(urls.map((url) => call(url, auth(key))))).map((reply) => reply.status)
  const times = (n: number, url: string) => Array.from({ length: n }, () => url)
  expect(await statuses(times(sent.found, petUrl(api, id)), keys.unlimited)).toEqual(
    times(sent.found, '').map(() => 200),
  )
  expect(
    await statuses(times(sent.listed, `${api}${basePath}${listPets.path}`), keys.unlimited),
  ).toEqual(times(sent.listed, '').map(() => 200))
  expect(await statuses(times(sent.missing, petUrl(api, 999_999)), keys.unlimited)).toEqual(
    times(sent.missing, '').map(() => 404),
  )
  expect(await statuses([petUrl(api, 'not-a-number')], keys.unlimited)).toEqual([400])
  // An unknown path, and /metrics on the API port: it never serves metrics.
  expect(
    await statuses([`${api}${basePath}/no-such-thing`, `${api}/metrics`], keys.unlimited),
  ).toEqual([404, 404])
  // The router's refusal (bad percent-encoding), below every route.
  expect(await statuses([`${api}${basePath}/pets/%zz`], keys.unlimited)).toEqual([400])
  expect(await oversizedHead(api)).toBe(431)
  expect(await stalledHead(api)).toBe(408)
  const tooLarge = await call(`${api}${basePath}${createPet.path}`, {
    method: 'POST',
    headers: { authorization: keys.unlimited, 'content-type': 'application/json' },
    body: JSON.stringify(newPet({ name: 'x'.repeat(70 * 1024) })),
  })
  expect(tooLarge.status).toBe(413)
  const single = [200, ...times(sent.limited, '').map(() => 429)]
  const limited: number[] = []
  for (const _ of single) limited.push(...(await statuses([petUrl(api, id)], keys.single)))
  expect(limited).toEqual(single)
  return {
    [`POST ${route(createPet)} 201`]: 1,
    [`POST ${route(createPet)} 413`]: 1,
    [`GET ${route(getPet)} 200`]: sent.found + 1,
    [`GET ${route(getPet)} 404`]: sent.missing,
    [`GET ${route(getPet)} 400`]: 1,
    [`GET ${route(getPet)} 429`]: sent.limited,
    [`GET ${route(listPets)} 200`]: sent.listed,
    'GET  404': sent.unrouted,
    'GET  400': 1,
    'GET  431': 1,
    'GET  408': 1,
  }
}

const requestCounts =
  'sum by (http_request_method, http_route, http_response_status_code) (http_server_request_duration_seconds_count{job="petstore"})'
const countLabels = ['http_request_method', 'http_route', 'http_response_status_code']

/** Asserts Prometheus's counts once they settle: exactly `expected`, nothing else. */
async function expectCounts(prometheus: RunningPrometheus, expected: Record<string, number>) {
  const want = JSON.stringify(sorted(expected))
  const samples = await prometheus.settle(
    requestCounts,
    (found) => JSON.stringify(sorted(byLabels(found, countLabels))) === want,
  )
  expect(byLabels(samples, countLabels)).toEqual(expected)
}

const sorted = (record: Record<string, number>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))

/** The metrics listener's URL, from the line the server (or the primary) logs. */
function metricsUrl(child: Child): string {
  const url = /metrics (?:of every worker )?at (http:\/\/\S+\/metrics)/.exec(child.stdout())?.[1]
  if (url === undefined) throw new Error(`no metrics URL in the log: ${child.stdout()}`)
  return url
}

async function scrape(url: string, accept?: string) {
  const response = await fetch(url, accept === undefined ? {} : { headers: { accept } })
  return { contentType: response.headers.get('content-type') ?? '', text: await response.text() }
}

const suite = 'test/metrics/prometheus.test.ts'
const prometheusReady =
  commandInstalled(prometheusBin, suite) && commandInstalled(promtoolBin, suite)

describe.runIf(prometheusReady)('one process on SQLite', () => {
  let dir: string
  let server: Child
  let prometheus: RunningPrometheus
  let keys: Keys

  beforeAll(async () => {
    requireBuiltServer()
    dir = mkdtempSync(join(tmpdir(), 'petstore-metrics-'))
    const dbPath = join(dir, 'petstore.db')
    const store = openSqliteStore(dbPath)
    keys = await issueKeys(store.keys)
    await store.close()
    server = await startChild({ PETSTORE_DB: dbPath, ...serverEnv })
    prometheus = await startPrometheus(metricsUrl(server))
  })

  afterAll(async () => {
    await prometheus?.stop()
    server?.process.kill('SIGKILL')
    await server?.exited
    rmSync(dir, { recursive: true, force: true })
  })

  it('counts every request by route and status exactly, refusals below the routes included', async () => {
    const expected = await sendKnownLoad(server.url, keys)
    await expectCounts(prometheus, expected)
    const refusals = await prometheus.settle(
      'petstore_rate_limit_refusals_total{job="petstore"}',
      (found) => found.length > 0,
    )
    expect(byLabels(refusals, ['reason', 'plan'])).toEqual({
      'rate_limited enterprise': sent.limited,
    })
  })

  it('says the store is up, times store calls, and reports the process', async () => {
    const up = await prometheus.settle('petstore_backend_up', (found) => found.length > 0)
    expect(byLabels(up, ['backend'])).toEqual({ sqlite: 1 })
    const storeCalls = await prometheus.query(
      'sum by (db_operation_name) (db_client_operation_duration_seconds_count{db_system_name="sqlite"})',
    )
    expect(byLabels(storeCalls, ['db_operation_name'])).toMatchObject({ 'pets.create': 1 })
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds_count',
      'http_server_active_requests',
    ]) {
      expect(await prometheus.query(name), name).not.toEqual([])
    }
  })

  it('passes promtool check metrics, and answers OpenMetrics when asked', async () => {
    const url = metricsUrl(server)
    const text = await scrape(url)
    expect(text.contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(await promtool(['check', 'metrics'], text.text)).toEqual({ code: 0, output: '' })
    const open = await scrape(url, 'application/openmetrics-text; version=1.0.0')
    expect(open.contentType).toMatch(/^application\/openmetrics-text; version=1\.0\.0/)
    expect(open.text.endsWith('# EOF\n')).toBe(true)
    expect(open.text).toContain('# TYPE petstore_rate_limit_refusals counter')
  })
})

const clusterReady =
  prometheusReady && (await serviceAvailable('PostgreSQL', suite)) && redisServerInstalled(suite)

describe.runIf(clusterReady)('PETSTORE_WORKERS=2 on PostgreSQL and Redis', () => {
  const schemas = schemaFactory()
  let redis: PrivateRedis
  let server: Child
  let prometheus: RunningPrometheus
  let keys: Keys

  beforeAll(async () => {
    requireBuiltServer()
    const schema = await schemas.create()
    const url = inSchema(postgresUrl, schema)
    const store = await openPostgresStore({ url, size: 1, schema })
    keys = await issueKeys(store.keys)
    await store.close()
    redis = await startPrivateRedis()
    server = await startChild({
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      PETSTORE_WORKERS: '2',
      ...serverEnv,
    })
    await server.waitFor('2 workers listening on')
    await server.waitFor('metrics of every worker at')
    prometheus = await startPrometheus(metricsUrl(server))
  })

  afterAll(async () => {
    await prometheus?.stop()
    server?.process.kill('SIGKILL')
    await server?.exited
    await redis?.stop()
    await schemas.dropAll()
  })

  it('sums every worker on the primary: exact counts by route and status', async () => {
    const expected = await sendKnownLoad(server.url, keys)
    await expectCounts(prometheus, expected)
    // Both workers served part of it, so the sum is over both.
    const pids = new Set<number>()
    for (let i = 0; i < 40 && pids.size < 2; i++) {
      await sleep(100)
      for (const line of server.stdout().trim().split('\n')) {
        const { pid, statusCode } = JSON.parse(line) as { pid: number; statusCode?: number }
        if (statusCode !== undefined) pids.add(pid)
      }
    }
    expect(pids.size).toBe(2)
  })

  it('says PostgreSQL and Redis are up, once for all workers', async () => {
    const up = await prometheus.settle('petstore_backend_up', (found) => found.length > 1)
    expect(byLabels(up, ['backend'])).toEqual({ postgresql: 1, redis: 1 })
    const text = (await scrape(metricsUrl(server))).text
    expect(await promtool(['check', 'metrics'], text)).toEqual({ code: 0, output: '' })
  })
})
