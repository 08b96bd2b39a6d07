import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWireCeiling, routeKey } from '../src/ceilings/wire.js'
import { measureLatencyPair } from '../src/latency-pair.js'
import { closeServer, listen } from './helpers.js'

describe('measureLatencyPair', () => {
  const server = createWireCeiling({
    [routeKey('GET', '/first')]: { status: 200, headers: {}, body: '[]' },
    [routeKey('GET', '/deep')]: { status: 200, headers: {}, body: '[]' },
  })
  let url: string
  beforeAll(async () => {
    url = await listen(server)
  })
  afterAll(() => closeServer(server))

  it('times both calls at one connection and divides their medians', async () => {
    const pair = await measureLatencyPair(
      url,
      { method: 'GET', path: '/first' },
      { method: 'GET', path: '/deep' },
      { rounds: 1, seconds: 0.2 },
    )
    expect(pair.connections).toBe(1)
    expect(pair.base.p50).toBeGreaterThan(0)
    expect(pair.other.p99).toBeGreaterThanOrEqual(pair.other.p50)
    expect(pair.p50Ratio).toBeCloseTo(pair.other.p50 / pair.base.p50)
    expect(pair.base.non2xx + pair.other.non2xx).toBe(0)
  }, 20_000)
})
