import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWireCeiling, routeKey } from '../../src/ceilings/wire.js'
import { runLoad } from '../../src/load.js'
import { closeServer, listen } from '../helpers.js'

const page = '[{"id":1,"name":"Rex","categoryId":1,"status":"available"}]'

describe('the wire ceiling', () => {
  let server: Server
  let url: string
  beforeAll(async () => {
    server = createWireCeiling({
      [routeKey('GET', '/v1/pets?limit=20')]: {
        status: 200,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': '1000',
          'content-length': '999',
          date: 'Thu, 01 Jan 1970 00:00:00 GMT',
        },
        body: page,
      },
      [routeKey('POST', '/v1/pets')]: {
        status: 201,
        headers: { location: '/v1/pets/1' },
        body: '{}',
      },
    })
    url = await listen(server)
  })
  afterAll(() => closeServer(server))

  it('replays the captured status, headers and body, with its own length and date', async () => {
    const response = await fetch(`${url}/v1/pets?limit=20`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(page)))
    expect(response.headers.get('date')).not.toBe('Thu, 01 Jan 1970 00:00:00 GMT')
    expect(await response.text()).toBe(page)
  })

  it('answers a POST whose body it never reads, and keeps the connection usable', async () => {
    const created = await fetch(`${url}/v1/pets`, { method: 'POST', body: 'x'.repeat(10_000) })
    expect(created.status).toBe(201)
    expect(await created.text()).toBe('{}')
    expect((await fetch(`${url}/v1/pets?limit=20`)).status).toBe(200)
  })

  it('answers unknown routes with 404, which a load run counts as non-2xx', async () => {
    const result = await runLoad({
      url,
      calls: [
        { method: 'GET', path: '/v1/pets?limit=20' },
        { method: 'GET', path: '/v1/pets?limit=21' },
      ],
      connections: 2,
      seconds: 0.3,
    })
    expect(result.ok).toBeGreaterThan(0)
    expect(result.non2xx).toBeGreaterThan(0)
    expect(result.statuses['404']).toBe(result.non2xx)
    expect(result.errors).toBe(0)
    expect(result.p50).toBeGreaterThan(0)
    expect(result.p99).toBeGreaterThanOrEqual(result.p50)
  })
})
