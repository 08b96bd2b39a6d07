/**
 * Faults of the backing services, with real processes: a private redis-server the test kills
 * and restarts, and a proxy in front of PostgreSQL that cuts every connection. Every answer
 * must come quickly (a fetch deadline fails a hang), be an Error body, and service must return
 * by itself.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from '@petstore/scripts/free-port'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../../src/auth/api-key.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { type Child, requireBuiltServer, serverJs, startChild } from '../child-server.js'
import { call, expectErrorBody, newPet, postJson, type Reply } from '../helpers.js'
import {
  inSchema,
  postgresUrl,
  privateRole,
  redisServerInstalled,
  schemaFactory,
  serviceAvailable,
} from '../services.js'
import { startPrivateRedis, startProxy } from './processes.js'

/** Longer than any bounded wait of the server (5 s for PostgreSQL, 1 s for Redis): a hang fails. */
const quickly = (init: RequestInit = {}) => ({ ...init, signal: AbortSignal.timeout(12_000) })

let dir: string
beforeAll(() => {
  requireBuiltServer()
  dir = mkdtempSync(join(tmpdir(), 'petstore-faults-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function sqliteWithKey(): Promise<{ dbPath: string; auth: { authorization: string } }> {
  const dbPath = join(dir, `${Math.random().toString(36).slice(2)}.db`)
  const store = openSqliteStore(dbPath)
  const { rawKey } = await issueApiKey(store.keys, { plan: 'free' })
  await store.close()
  return { dbPath, auth: { authorization: `Bearer ${rawKey}` } }
}

/** Calls until `accept(reply)`, for at most `seconds`; returns the last reply. */
async function until(
  request: () => Promise<Reply>,
  accept: (reply: Reply) => boolean,
  seconds = 15,
): Promise<Reply> {
  const deadline = Date.now() + seconds * 1000
  for (;;) {
    const reply = await request()
    if (accept(reply) || Date.now() > deadline) return reply
    await sleep(200)
  }
}

const count = (text: string, part: string) => text.split(part).length - 1

/** Runs the server expecting it to stop at start. */
async function runToExit(env: Record<string, string>): Promise<{ code: unknown; stderr: string }> {
  const child = spawn(process.execPath, [serverJs], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const code = await new Promise((resolve) => child.on('exit', resolve))
  return { code, stderr }
}

it('stops with one clear line and exit 1 when PostgreSQL is unreachable at start', async () => {
  const port = await freePort()
  const { code, stderr } = await runToExit({
    DATABASE_URL: `postgres://petstore:secret@127.0.0.1:${port}/petstore`,
  })
  expect(code).toBe(1)
  expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  expect(stderr).toContain(
    `cannot open the database postgres://petstore:***@127.0.0.1:${port}/petstore`,
  )
  expect(stderr).not.toContain('secret')
})

const redisServer = redisServerInstalled('test/backends/faults.test.ts (Redis faults)')

describe.runIf(redisServer)('Redis faults', () => {
  it('stops with one clear line and exit 1 when Redis is unreachable at start', async () => {
    const { dbPath } = await sqliteWithKey()
    const port = await freePort()
    const { code, stderr } = await runToExit({
      PETSTORE_DB: dbPath,
      REDIS_URL: `redis://127.0.0.1:${port}`,
    })
    expect(code).toBe(1)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`)
  })

  for (const mode of ['closed', 'local'] as const) {
    it(`with ${mode}: answers while Redis is lost, logs it once, and recovers without a restart`, async () => {
      const redis = await startPrivateRedis()
      const { dbPath, auth } = await sqliteWithKey()
      const child: Child = await startChild({
        PETSTORE_DB: dbPath,
        REDIS_URL: redis.url,
        PETSTORE_LIMITS_ON_REDIS_ERROR: mode,
      })
      const list = () => call(`${child.url}/v1/pets`, quickly({ headers: auth }))
      const ready = () => call(`${child.url}/readyz`, quickly())
      try {
        expect((await list()).status).toBe(200)
        await redis.stop()

        const during = [await list(), await list(), await list()]
        const readiness = await ready()
        if (mode === 'closed') {
          // A request refused below the routes (bad percent-encoding) is counted too, so it
          // gets the same 503, with the contract's headers.
          const refused = await call(`${child.url}/v1/pets/%ff`, quickly({ headers: auth }))
          for (const reply of [...during, refused]) {
            expectErrorBody(reply, 'service_unavailable')
            expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
            expect(reply.headers.get('x-request-id')).toBeTruthy()
            expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
            expect(reply.headers.get('cache-control')).toBe('no-store')
          }
          expectErrorBody(readiness, 'service_unavailable')
        } else {
          for (const reply of during) {
            expect(reply.status).toBe(200)
            expect(reply.headers.get('x-ratelimit-limit')).toBe('60')
          }
          expect([readiness.status, readiness.body]).toEqual([
            200,
            { status: 'degraded', limits: 'local' },
          ])
        }
        await child.waitFor('Redis is not reachable')
        expect(count(child.stdout(), 'Redis is not reachable')).toBe(1)
        // One error line for the whole outage, not one per refused request.
        expect(count(child.stdout(), '"level":50')).toBe(1)

        await redis.start()
        const recovered = await until(
          ready,
          (reply) => reply.status === 200 && (reply.body as { limits: string }).limits === 'shared',
        )
        expect(recovered.body).toEqual({ status: 'ready', limits: 'shared' })
        expect((await list()).status).toBe(200)
        await child.waitFor('Redis is reachable again')
      } finally {
        child.process.kill('SIGTERM')
        await child.exited
        await redis.stop()
      }
    })
  }
})

describe.runIf(redisServer)('a stalled Redis (accepting connections, answering nothing)', () => {
  for (const mode of ['closed', 'local'] as const) {
    it(`with ${mode}: fails fast while it is stalled and recovers by itself`, async () => {
      const redis = await startPrivateRedis()
      const { dbPath, auth } = await sqliteWithKey()
      const child = await startChild({
        PETSTORE_DB: dbPath,
        REDIS_URL: redis.url,
        PETSTORE_LIMITS_ON_REDIS_ERROR: mode,
      })
      const list = () => call(`${child.url}/v1/pets`, quickly({ headers: auth }))
      try {
        expect((await list()).status).toBe(200)
        // What a request asks of Redis (its limits), once the first has set things up.
        const before = await redis.commands()
        expect((await list()).status).toBe(200)
        const asked = await redis.commands()
        const perRequest = asked - before
        expect(perRequest).toBeGreaterThan(0)
        redis.pause()
        // The first request waits for the command deadline and opens the circuit; then none asks
        // Redis at all (the fetch deadline, quickly(), fails any that hangs).
        const replies = [await list(), await list(), await list(), await list(), await list()]
        for (const reply of replies) {
          if (mode === 'closed') {
            expectErrorBody(reply, 'service_unavailable')
            expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
          } else {
            expect(reply.status).toBe(200)
          }
        }
        const readiness = await call(`${child.url}/readyz`, quickly())
        if (mode === 'closed') expectErrorBody(readiness, 'service_unavailable')
        else expect(readiness.body).toEqual({ status: 'degraded', limits: 'local' })
        await child.waitFor('Redis is not reachable')
        expect(count(child.stdout(), '"level":50')).toBe(1)

        redis.resume()
        // Redis runs what waited in its sockets before this new connection's INFO: the first
        // request's commands at most, none of the four after it.
        expect(await redis.commands()).toBeLessThanOrEqual(asked + perRequest)
        const recovered = await until(
          () => call(`${child.url}/readyz`, quickly()),
          (reply) => reply.status === 200 && (reply.body as { limits: string }).limits === 'shared',
        )
        expect(recovered.body).toEqual({ status: 'ready', limits: 'shared' })
        expect((await list()).status).toBe(200)
        await child.waitFor('Redis is reachable again')
      } finally {
        redis.resume()
        child.process.kill('SIGTERM')
        await child.exited
        await redis.stop()
      }
    })
  }
})

const postgresUp = await serviceAvailable('PostgreSQL', 'test/backends/faults.test.ts (PostgreSQL)')

describe.runIf(postgresUp)('PostgreSQL faults', () => {
  const schemas = schemaFactory()
  afterAll(() => schemas.dropAll())

  it('answers 503 while PostgreSQL is read-only, logs it once, and recovers without a restart', async () => {
    // A role of the test's own whose sessions become read-only, as on a standby after a failover.
    const role = await privateRole(await schemas.create())
    const store = await openPostgresStore({ url: role.url, size: 1 })
    const { rawKey } = await issueApiKey(store.keys, { plan: 'pro' })
    await store.close()
    const auth = { authorization: `Bearer ${rawKey}` }
    const child = await startChild({ DATABASE_URL: role.url })
    const create = () => postJson(`${child.url}/v1/pets`, newPet(), auth)
    const ready = () => call(`${child.url}/readyz`, quickly())
    try {
      expect((await create()).status).toBe(201)
      await role.setReadOnly(true)
      await role.endSessions()
      // The ended sessions may answer once as lost (57P01) before new ones answer read-only.
      const refused = await until(
        create,
        (reply) => reply.status === 503 && child.stdout().includes('"condition":"read-only"'),
      )
      expectErrorBody(refused, 'service_unavailable')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      for (let i = 0; i < 20; i++) expect((await create()).status).toBe(503)
      expectErrorBody(await ready(), 'service_unavailable')
      // Reads still work: only writes are refused.
      expect((await call(`${child.url}/v1/pets`, quickly({ headers: auth }))).status).toBe(200)
      // One line per condition (at most the lost sessions, then read-only), no stack.
      expect(count(child.stdout(), '"condition":"read-only"')).toBe(1)
      expect(count(child.stdout(), 'the store cannot serve requests')).toBeLessThanOrEqual(2)
      expect(child.stdout()).not.toContain('"stack"')

      await role.setReadOnly(false)
      const after = await until(create, (reply) => reply.status === 201)
      expect(after.status).toBe(201)
      expect((await until(ready, (reply) => reply.status === 200)).body).toEqual({
        status: 'ready',
      })
      await child.waitFor('the store serves requests again')
    } finally {
      child.process.kill('SIGTERM')
      await child.exited
      await role.drop()
    }
  })

  it('answers 503 while PostgreSQL is gone, never hangs or crashes, and recovers by itself', async () => {
    const schema = await schemas.create()
    const proxy = await startProxy(postgresUrl)
    const url = inSchema(proxy.url, schema)
    const store = await openPostgresStore({ url: postgresUrl, size: 1, schema })
    const { rawKey } = await issueApiKey(store.keys, { plan: 'free' })
    await store.close()
    const auth = { authorization: `Bearer ${rawKey}` }
    const child = await startChild({ DATABASE_URL: url })
    const create = () => postJson(`${child.url}/v1/pets`, newPet(), auth)
    try {
      expect((await create()).status).toBe(201)
      proxy.cut()
      for (const reply of [
        await create(),
        await call(`${child.url}/v1/pets/1`, quickly({ headers: auth })),
        await call(`${child.url}/readyz`, quickly()),
      ]) {
        expectErrorBody(reply, 'service_unavailable')
        expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      }
      // One error line for the outage (the requests' and /readyz's alike), no stack.
      await child.waitFor('the store cannot serve requests')
      expect(count(child.stdout(), 'the store cannot serve requests')).toBe(1)
      expect(child.stdout()).not.toContain('"stack"')
      proxy.restore()
      const after = await until(create, (reply) => reply.status === 201)
      expect(after.status).toBe(201)
      const ready = await until(
        () => call(`${child.url}/readyz`, quickly()),
        (reply) => reply.status === 200,
      )
      expect(ready.body).toEqual({ status: 'ready' })
      await child.waitFor('the store serves requests again')
      expect(child.process.exitCode).toBeNull()
    } finally {
      child.process.kill('SIGTERM')
      await child.exited
      await proxy.close()
    }
  })
})
