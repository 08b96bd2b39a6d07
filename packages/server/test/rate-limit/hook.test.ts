/**
 * The hook inside a minimal real Fastify app (real port, real fetch): what it writes, what it
 * refuses, and what it logs. test/rate-limit/http.test.ts covers it inside the whole service.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Caller } from '../../src/auth/caller.js'
import { configWith } from '../../src/config.js'
import { ApiProblem } from '../../src/errors.js'
import { createRateLimitHook } from '../../src/rate-limit/hook.js'
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.js'

const RAW_KEY_PREFIX = 'psk_test_'
const logLines: string[] = []
let app: FastifyInstance
let base: string
let handled = 0

/** Keys are `psk_test_<plan>_<perMinute>_<perDay>_<id>`; anything else counts against the IP. */
function callerOf(authorization: string | undefined, ip: string): Caller {
  const raw = authorization?.replace(/^Bearer /i, '')
  if (!raw?.startsWith(RAW_KEY_PREFIX)) return { kind: 'ip', ip }
  const [plan, perMinute, perDay, id] = raw.slice(RAW_KEY_PREFIX.length).split('_')
  return {
    kind: 'key',
    key: {
      id: `key_${id}`,
      name: null,
      plan: plan as 'free' | 'enterprise',
      perMinute: Number(perMinute),
      perDay: Number(perDay),
      createdAt: '2026-01-01T00:00:00.000Z',
      revokedAt: null,
    },
  }
}

beforeAll(async () => {
  app = Fastify({ logger: { level: 'warn', stream: { write: (line) => logLines.push(line) } } })
  const limiter = createMemoryRateLimiter()
  const rateLimit = createRateLimitHook(limiter, configWith({ banThreshold: 3, banSeconds: 120 }))
  app.addHook('onClose', () => limiter.close())
  app.addHook('onRequest', async (request, reply) => {
    const caller = callerOf(request.headers.authorization, request.ip)
    await rateLimit(request, reply, caller)
    if (caller.kind === 'ip') throw new ApiProblem('unauthorized', 'the API key is missing')
  })
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof ApiProblem)) throw error
    reply.code(error.status).headers(error.headers)
    return { code: error.code, message: error.message, status: error.status }
  })
  app.get('/v1/thing', async () => {
    handled++
    return { ok: true }
  })
  base = await app.listen({ port: 0, host: '127.0.0.1' })
})

afterAll(() => app.close())

async function get(key?: string) {
  const response = await fetch(`${base}/v1/thing`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  })
  return { response, body: (await response.json()) as { code?: string; message?: string } }
}

describe('createRateLimitHook', () => {
  it('counts a key in its plan and writes the headers on success', async () => {
    const { response } = await get(`${RAW_KEY_PREFIX}free_0_0_success`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59')
    expect(response.headers.get('ratelimit-policy')).toBe(
      '"minute";q=60;w=60, "day";q=1000;w=86400',
    )
    expect(response.headers.get('ratelimit')).toMatch(/^"minute";r=59;t=\d+, "day";r=999;t=\d+$/)
  })

  it('refuses over the limit without running the handler', async () => {
    const key = `${RAW_KEY_PREFIX}enterprise_2_100_limited`
    await get(key)
    await get(key)
    const before = handled
    const { response, body } = await get(key)
    expect(handled).toBe(before)
    expect(response.status).toBe(429)
    expect(body.code).toBe('rate_limited')
    const retryAfter = response.headers.get('retry-after')
    expect(body.message).toBe(
      `rate limit of 2 requests per minute exceeded; retry after ${retryAfter} seconds`,
    )
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(response.headers.get('ratelimit')).toMatch(
      new RegExp(`^"minute";r=0;t=${retryAfter}, "day";r=97;t=\\d+$`),
    )
  })

  it('bans a key once, logging its id and never the raw key', async () => {
    const key = `${RAW_KEY_PREFIX}enterprise_1_100_banned`
    const statuses: (string | undefined)[] = []
    for (let i = 0; i < 6; i++) statuses.push((await get(key)).body.code)
    expect(statuses).toEqual([
      undefined,
      'rate_limited',
      'rate_limited',
      'api_key_banned',
      'api_key_banned',
      'api_key_banned',
    ])
    const { response, body } = await get(key)
    expect(response.status).toBe(429)
    const retryAfter = Number(response.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(119)
    expect(retryAfter).toBeLessThanOrEqual(120)
    expect(body.message).toBe(
      `the API key is banned for ${retryAfter} seconds after repeated requests while rate limited`,
    )
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0')

    const bans = logLines.filter((line) => line.includes('API key banned'))
    expect(bans).toHaveLength(1)
    expect(JSON.parse(bans[0] as string)).toMatchObject({
      level: 40,
      keyId: 'key_banned',
      banSeconds: 120,
    })
    expect(logLines.join('\n')).not.toContain(RAW_KEY_PREFIX)
  })

  it('limits requests without a valid key per IP at the free plan, 401s included', async () => {
    const first = await get()
    expect(first.response.status).toBe(401)
    expect(first.response.headers.get('x-ratelimit-limit')).toBe('60')
    const remaining = Number(first.response.headers.get('x-ratelimit-remaining'))
    for (let i = 0; i < remaining; i++) expect((await get('not-a-key')).response.status).toBe(401)
    const over = await get()
    expect(over.response.status).toBe(429)
    expect(over.body.code).toBe('rate_limited')
    // An IP is limited, never banned, however long it keeps sending.
    for (let i = 0; i < 5; i++) expect((await get()).body.code).toBe('rate_limited')
  })
})
