/**
 * Two server processes on one PostgreSQL (a fresh schema) and one Redis (a private server):
 * they share pets, limits, bans and idempotency records exactly, and pagination stays exact
 * while both create.
 */
import { instanceEnv } from '@petstore/scripts/instance-env'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey } from '../../src/auth/api-key.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import type { Store } from '../../src/store/store.js'
import { type Child, requireBuiltServer, startChild } from '../child-server.js'
import { call, errorOf, newPet, petOf, petsOf, postJson } from '../helpers.js'
import {
  inSchema,
  postgresUrl,
  redisServerInstalled,
  schemaFactory,
  serviceAvailable,
} from '../services.js'
import { type PrivateRedis, startPrivateRedis } from './processes.js'

const available =
  (await serviceAvailable('PostgreSQL', 'test/backends/multi-instance.test.ts')) &&
  redisServerInstalled('test/backends/multi-instance.test.ts')

describe.runIf(available)('two instances on one PostgreSQL and one Redis', () => {
  const schemas = schemaFactory()
  let redis: PrivateRedis
  let store: Store
  let a: Child
  let b: Child

  beforeAll(async () => {
    requireBuiltServer()
    const schema = await schemas.create()
    const url = inSchema(postgresUrl, schema)
    store = await openPostgresStore({ url, size: 2, schema })
    redis = await startPrivateRedis()
    const env = {
      ...instanceEnv({ databaseUrl: url, redisUrl: redis.url, metricsPort: '0' }),
      // Tuning for the ban test below, not part of a deployment.
      PETSTORE_BAN_THRESHOLD: '3',
    }
    // Both at once: the migrations' advisory lock makes them agree.
    ;[a, b] = await Promise.all([startChild(env), startChild(env)])
  })

  afterAll(async () => {
    for (const child of [a, b]) child?.process.kill('SIGTERM')
    await Promise.all([a?.exited, b?.exited])
    await store?.close()
    await redis?.stop()
    await schemas.dropAll()
  })

  const bearer = async (plan: 'free' | 'enterprise') => {
    const { rawKey } = await issueApiKey(store.keys, {
      plan,
      ...(plan === 'enterprise' ? { perMinute: 100_000, perDay: 1_000_000 } : {}),
    })
    return { authorization: `Bearer ${rawKey}` }
  }
  it('serves on each instance the metrics Prometheus scrapes, with PostgreSQL and Redis up', async () => {
    for (const server of [a, b]) {
      const url = /metrics at (http:\/\/\S+\/metrics)/.exec(server.stdout())?.[1]
      expect(url, server.stdout()).toBeDefined()
      const scrape = await call(url ?? '')
      expect(scrape.status).toBe(200)
      expect(scrape.text).toContain('petstore_backend_up{backend="postgresql"} 1')
      expect(scrape.text).toContain('petstore_backend_up{backend="redis"} 1')
    }
  })

  it('reads on B a pet created on A', async () => {
    const auth = await bearer('enterprise')
    const created = await postJson(`${a.url}/v1/pets`, newPet(), auth)
    expect(created.status).toBe(201)
    const id = petOf(created).id
    const read = await call(`${b.url}/v1/pets/${id}`, { headers: auth })
    expect([read.status, read.body]).toEqual([200, created.body])
  })

  it('allows exactly 60 of 100 parallel requests spread over A and B with one free key', async () => {
    const auth = await bearer('free')
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(`${(i % 2 === 0 ? a : b).url}/v1/pets?limit=1`, { headers: auth }),
      ),
    )
    const statuses = replies.map((reply) => reply.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(60)
    expect(statuses.filter((status) => status === 429)).toHaveLength(40)
  })

  it('holds on B a ban reached through A', async () => {
    const auth = await bearer('free')
    const onA = []
    for (let i = 0; i < 63; i++) onA.push(await call(`${a.url}/v1/pets?limit=1`, { headers: auth }))
    expect(onA.slice(60).map((reply) => errorOf(reply).code)).toEqual([
      'rate_limited',
      'rate_limited',
      'api_key_banned',
    ])
    const onB = await call(`${b.url}/v1/pets?limit=1`, { headers: auth })
    expect([onB.status, errorOf(onB).code]).toEqual([429, 'api_key_banned'])
    expect(Number(onB.headers.get('retry-after'))).toBeGreaterThan(800)
  })

  it('replays on B an idempotency key used on A', async () => {
    const auth = await bearer('enterprise')
    const headers = { ...auth, 'idempotency-key': 'order-42' }
    const first = await postJson(`${a.url}/v1/pets`, newPet(), headers)
    const replay = await postJson(`${b.url}/v1/pets`, newPet(), headers)
    expect(first.status).toBe(201)
    expect([replay.status, replay.body]).toEqual([201, first.body])
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    const reused = await postJson(`${b.url}/v1/pets`, newPet({ name: 'Other' }), headers)
    expect(errorOf(reused).code).toBe('idempotency_key_reused')
  })

  it('visits every pet exactly once in a walk alternating A and B while both create', async () => {
    const auth = await bearer('enterprise')
    const status = 'pending'
    const creating = Promise.all(
      [a, b].map(async (server) => {
        const ids: number[] = []
        for (let round = 0; round < 15; round++) {
          const replies = await Promise.all(
            Array.from({ length: 8 }, () =>
              postJson(`${server.url}/v1/pets`, newPet({ status }), auth),
            ),
          )
          ids.push(...replies.map((reply) => petOf(reply).id))
        }
        return ids
      }),
    )
    let done = false
    void creating.then(() => {
      done = true
    })
    const visited: number[] = []
    let path = `/v1/pets?limit=3&status=${status}`
    let rereading = false
    for (let step = 0; ; step++) {
      const finished = done
      const reply = await call(`${(step % 2 === 0 ? a : b).url}${path}`, { headers: auth })
      expect(reply.status).toBe(200)
      const ids = petsOf(reply).map((pet) => pet.id)
      // The last page is read again until the creators are done: only its new pets count.
      // A page reached through `next` counts whole, so a pet listed twice would show.
      const last = visited.at(-1) ?? 0
      visited.push(...(rereading ? ids.filter((id) => id > last) : ids))
      const next = /<([^>]+)>; rel="next"/.exec(reply.headers.get('link') ?? '')?.[1]
      rereading = next === undefined
      if (next !== undefined) path = next
      else if (finished) break
    }
    const created = (await creating).flat().sort((x, y) => x - y)
    expect(visited).toEqual(created)
  })
})
