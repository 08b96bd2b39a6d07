import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { issueApiKey, openSqliteStore } from '@petstore/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type ContractCeiling, createContractCeiling } from '../../src/ceilings/contract.js'
import { runLoad } from '../../src/load.js'
import { findDeepCursor, nextCursor } from '../../src/probe.js'
import { countPets, seedPets, workspaceServer } from '../../src/seed.js'
import { bearer, coldWalkWorkload } from '../../src/workloads.js'
import { closeServer, listen, tempDir } from '../helpers.js'

describe('the contract ceiling', () => {
  const temp = tempDir()
  const dbPath = join(temp.dir, 'contract.db')
  const logPath = join(temp.dir, 'contract.log')
  let ceiling: ContractCeiling
  let url = ''
  let key = ''
  let freeKey = ''
  beforeAll(async () => {
    const store = openSqliteStore(dbPath)
    const limits = { perMinute: 1_000_000, perDay: 1_000_000 }
    key = (await issueApiKey(store.keys, { plan: 'enterprise', ...limits })).rawKey
    freeKey = (await issueApiKey(store.keys, { plan: 'free' })).rawKey
    await store.close()
    await seedPets(workspaceServer, dbPath, { count: 250, soldTail: 5 })
    ceiling = createContractCeiling(dbPath, logPath)
    url = await listen(ceiling.server)
  })
  afterAll(async () => {
    await closeServer(ceiling.server)
    await ceiling.close()
    temp.remove()
  })

  const get = (path: string, headers: Record<string, string> = bearer(key)) =>
    fetch(`${url}${path}`, { headers })
  const create = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/v1/pets`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
      body,
    })

  it('pages with opaque cursors and a next link that keeps limit and status', async () => {
    const first = await get('/v1/pets?limit=2&status=pending')
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual([
      { id: 2, name: 'Pet 2', categoryId: 3, status: 'pending' },
      { id: 4, name: 'Pet 4', categoryId: 5, status: 'pending' },
    ])
    const link = first.headers.get('link') ?? ''
    expect(link).toMatch(
      /^<\/v1\/pets\?limit=2&status=pending&cursor=[A-Za-z0-9_-]{22}>; rel="next"$/,
    )
    const cursor = nextCursor(link) as string
    const second = await get(`/v1/pets?limit=2&status=pending&cursor=${cursor}`)
    expect(((await second.json()) as { id: number }[]).map((pet) => pet.id)).toEqual([6, 8])
    const altered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`
    expect((await get(`/v1/pets?limit=2&cursor=${altered}`)).status).toBe(400)
    expect((await get('/v1/pets?limit=0')).status).toBe(400)
    expect((await get('/v1/pets?limit=1&limit=2')).status).toBe(400)
    const last = await get('/v1/pets?status=sold&limit=5')
    expect(last.headers.get('link')).toBeNull()
  })

  it('sets the service headers on every answer', async () => {
    const response = await get('/v1/pets?limit=1')
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('ratelimit-policy')).toBe(
      '"minute";q=1000000;w=60, "day";q=1000000;w=86400',
    )
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const cors = await get('/v1/pets?limit=1', { ...bearer(key), origin: 'https://app.example' })
    expect(cors.headers.get('access-control-allow-origin')).toBe('*')
    expect(cors.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining')
    const other = await get('/v1/pets?limit=1')
    expect(other.headers.get('x-request-id')).not.toBe(response.headers.get('x-request-id'))
  })

  it('counts each key in a minute and a day window', async () => {
    const one = await get('/v1/pets?limit=1', bearer(freeKey))
    const two = await get('/v1/pets?limit=1', bearer(freeKey))
    expect(one.headers.get('x-ratelimit-limit')).toBe('60')
    expect(one.headers.get('x-ratelimit-remaining')).toBe('59')
    expect(two.headers.get('x-ratelimit-remaining')).toBe('58')
    expect(two.headers.get('ratelimit')).toMatch(/^"minute";r=58;t=(59|60), "day";r=998;t=864\d\d$/)
    expect(two.headers.get('ratelimit-policy')).toBe('"minute";q=60;w=60, "day";q=1000;w=86400')
    const reset = Number(two.headers.get('x-ratelimit-reset'))
    expect(reset * 1000).toBeGreaterThan(Date.now())
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000)
    const statuses: number[] = []
    for (let i = 0; i < 60; i++) {
      statuses.push((await get('/v1/pets?limit=1', bearer(freeKey))).status)
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(58)
    const refused = await get('/v1/pets?limit=1', bearer(freeKey))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  })

  it('gets a pet with the deprecation headers, and 404s an unknown one', async () => {
    const response = await get('/v1/pets/7')
    expect(await response.json()).toEqual({
      id: 7,
      name: 'Pet 7',
      categoryId: 8,
      status: 'available',
    })
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/)
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
    expect(response.headers.get('link')).toContain('rel="deprecation"')
    const unknown = await get('/v1/pets/9999')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: 'not_found', status: 404 })
    expect((await get('/v1/pets/010')).status).toBe(400)
  })

  it('refuses a missing or unknown key with 401 and the Error body', async () => {
    const missing = await get('/v1/pets', {})
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="petstore"')
    expect(await missing.json()).toMatchObject({ code: 'unauthorized', status: 401 })
    const unknown = await get('/v1/pets', bearer('psk_live_0000'))
    expect(unknown.status).toBe(401)
    expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"')
    expect(unknown.headers.get('x-request-id')).not.toBeNull()
  })

  it('creates pets durably, several at once, with their location', async () => {
    const before = countPets(dbPath)
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create(JSON.stringify({ name: `Rex ${i}`, categoryId: 3 })),
      ),
    )
    const ids = new Set<number>()
    for (const response of responses) {
      expect(response.status).toBe(201)
      const pet = (await response.json()) as { id: number; status: string }
      expect(response.headers.get('location')).toBe(`/v1/pets/${pet.id}`)
      expect(pet.status).toBe('available')
      ids.add(pet.id)
    }
    expect(ids.size).toBe(10)
    expect(countPets(dbPath)).toBe(before + 10)
  })

  it('refuses a bad NewPet', async () => {
    const refused = async (body: string, status = 400, headers: Record<string, string> = {}) =>
      expect((await create(body, headers)).status).toBe(status)
    await refused('{"name":"Rex"}')
    await refused('{"name":" ","categoryId":1}')
    await refused('{"name":"Rex","categoryId":1,"colour":"red"}')
    await refused('{"name":"Rex","categoryId":1.5}')
    await refused('{"name":"R\\ud800x","categoryId":1}')
    await refused('{"name":"\\udc00","categoryId":1}')
    await refused('{"name":"Rex","categoryId":1,"status":"lost"}')
    await refused('[1]')
    await refused('{')
    await refused('{"name":"Rex","categoryId":1}', 415, { 'content-type': 'text/plain' })
  })

  it('logs one JSON line per request to its file', async () => {
    const response = await get('/v1/pets/3')
    const id = response.headers.get('x-request-id')
    await vi.waitFor(() => expect(readFileSync(logPath, 'utf8')).toContain(`"reqId":"${id}"`))
    const lines = readFileSync(logPath, 'utf8').trim().split('\n')
    const line = JSON.parse(lines.find((entry) => entry.includes(id as string)) as string)
    expect(line).toMatchObject({ method: 'GET', url: '/v1/pets/3', statusCode: 200 })
  })

  it('hands out a deep cursor, and accepts the cold walk cursors the bench writes', async () => {
    const cursor = await findDeepCursor('contract', url, bearer(key), 250)
    const page = (await (await get(`/v1/pets?limit=20&cursor=${cursor}`)).json()) as {
      id: number
    }[]
    expect(page[0]?.id).toBeGreaterThan(250)
    const walk = coldWalkWorkload(key, { id: 'walk-20', query: 'limit=20', data: '' }, [
      { cursor: undefined, afterId: 0 },
      { cursor: 'ignored', afterId: 20 },
    ])
    const second = walk.rotation?.contract[1]
    const answer = await get(second?.path ?? '')
    expect(((await answer.json()) as { id: number }[])[0]?.id).toBe(21)
  })

  it('serves a short load run with only 2xx responses', async () => {
    const result = await runLoad({
      url,
      calls: [{ method: 'GET', path: '/v1/pets?limit=20', headers: bearer(key) }],
      connections: 4,
      seconds: 0.3,
    })
    expect(result.ok).toBeGreaterThan(0)
    expect(result.non2xx + result.errors).toBe(0)
  })
})
