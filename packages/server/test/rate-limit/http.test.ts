/**
 * Rate limits through the whole service: real server on port 0, real SQLite file, real fetch.
 * Windows that must end are shortened through `rateLimitWindows` (1 s minute, 3 s day), so the
 * tests that wait for them wait seconds, and run concurrently, each on its own server.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  newPet,
  petOf,
  petsOf,
  postJson,
  type Reply,
  serveForTest,
  type TestServer,
} from '../helpers.js'

async function enterpriseKey(server: TestServer, perMinute: number, perDay: number) {
  const key = await server.issueKey({ plan: 'enterprise', perMinute, perDay })
  return { authorization: `Bearer ${key}` }
}

const listPets = (server: TestServer, headers: Record<string, string> = {}) =>
  call(`${server.api}/pets`, { headers })

/** The rate-limit fields of a reply, numbers parsed, `RateLimit` split per window. */
function limits(reply: Reply) {
  const field = reply.headers.get('ratelimit') ?? ''
  const windows = Object.fromEntries(
    field.split(', ').map((item) => {
      const [, name, r, t] = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(item) ?? []
      return [name, { r: Number(r), t: Number(t) }]
    }),
  )
  return {
    limit: Number(reply.headers.get('x-ratelimit-limit')),
    remaining: Number(reply.headers.get('x-ratelimit-remaining')),
    reset: Number(reply.headers.get('x-ratelimit-reset')),
    policy: reply.headers.get('ratelimit-policy'),
    retryAfter: reply.headers.get('retry-after'),
    minute: windows.minute as { r: number; t: number },
    day: windows.day as { r: number; t: number },
  }
}

describe('rate limits over HTTP', () => {
  it.concurrent('reaches and resets each window, with exact headers at each step', async (test) => {
    const server = await serveForTest(test, {
      rateLimitWindows: { minuteSeconds: 1, daySeconds: 3 },
    })
    const auth = await enterpriseKey(server, 2, 4)
    const policy = '"minute";q=2;w=1, "day";q=4;w=3'

    const first = limits(await listPets(server, auth))
    expect(first).toMatchObject({ limit: 2, remaining: 1, policy, retryAfter: null })
    expect(first.minute).toEqual({ r: 1, t: 1 })
    expect(first.day.r).toBe(3)
    expect(first.day.t).toBeGreaterThanOrEqual(1)
    expect(first.day.t).toBeLessThanOrEqual(3)

    const second = limits(await listPets(server, auth))
    expect(second).toMatchObject({ limit: 2, remaining: 0, reset: first.reset })
    expect(second.minute).toEqual({ r: 0, t: 1 })
    expect(second.day.r).toBe(2)

    const minuteOver = await listPets(server, auth)
    expect(minuteOver.status).toBe(429)
    expectErrorBody(minuteOver, 'rate_limited')
    expectSpecResponse(minuteOver, 'listPets')
    const third = limits(minuteOver)
    expect(third).toMatchObject({ limit: 2, remaining: 0, reset: first.reset, retryAfter: '1' })
    expect(third.minute).toEqual({ r: 0, t: 1 })
    expect(third.day.r).toBe(1)

    // Retry-After is the real wait: after it, the next minute window lets requests through.
    await sleep(Number(third.retryAfter) * 1000 + 50)
    const newMinute = await listPets(server, auth)
    expect(newMinute.status).toBe(200)
    const fourth = limits(newMinute)
    // The day counted all four requests, refused one included, so it has fewest left now.
    expect(fourth).toMatchObject({ limit: 4, remaining: 0, retryAfter: null })
    expect(fourth.minute).toEqual({ r: 1, t: 1 })
    expect(fourth.day.r).toBe(0)
    expect(fourth.reset).toBeGreaterThan(first.reset)

    const dayOver = await listPets(server, auth)
    expect(dayOver.status).toBe(429)
    expectErrorBody(dayOver, 'rate_limited')
    const fifth = limits(dayOver)
    expect(fifth).toMatchObject({ limit: 4, remaining: 0, reset: fourth.reset })
    expect(Number(fifth.retryAfter)).toBe(fifth.day.t)
    expect(errorOf(dayOver).message).toBe(
      `rate limit of 4 requests per day exceeded; retry after ${fifth.retryAfter} ${fifth.retryAfter === '1' ? 'second' : 'seconds'}`,
    )

    await sleep(Number(fifth.retryAfter) * 1000 + 50)
    const newDay = await listPets(server, auth)
    expect(newDay.status).toBe(200)
    expect(limits(newDay)).toMatchObject({ limit: 2, remaining: 1 })
    expect(limits(newDay).day.r).toBe(3)
  })

  it.concurrent('bans a key that keeps sending while limited, then lifts the ban', async (test) => {
    const server = await serveForTest(test, {
      rateLimitWindows: { minuteSeconds: 1, daySeconds: 60 },
      banThreshold: 3,
      banSeconds: 2,
    })
    const auth = await enterpriseKey(server, 1, 100)
    const codes: (string | number)[] = []
    let banned: Reply | undefined
    for (let i = 0; i < 5; i++) {
      const reply = await listPets(server, auth)
      codes.push(reply.status === 200 ? 200 : errorOf(reply).code)
      if (reply.status === 429) expectSpecResponse(reply, 'listPets')
      if (i === 3) banned = reply
    }
    expect(codes).toEqual([200, 'rate_limited', 'rate_limited', 'api_key_banned', 'api_key_banned'])

    const ban = limits(banned as Reply)
    expect(ban.retryAfter).toBe('2')
    expect(ban).toMatchObject({ remaining: 0, minute: { r: 0, t: 2 }, day: { r: 0, t: 2 } })
    expect(errorOf(banned as Reply).message).toBe(
      'the API key is banned for 2 seconds after repeated requests while rate limited',
    )

    // The minute window ends, the ban does not.
    await sleep(1100)
    const during = await listPets(server, auth)
    expectErrorBody(during, 'api_key_banned')
    expect(limits(during).retryAfter).toBe('1')

    await sleep(1000)
    const after = await listPets(server, auth)
    expect(after.status).toBe(200)
    expect(limits(after)).toMatchObject({ limit: 1, remaining: 0 })
  })

  it('limits requests without a valid key per IP at the free plan, 401s included', async (test) => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-limits-'))
    test.onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const dbPath = join(dir, 'petstore.db')
    const server = await serveForTest(test, { dbPath })
    const seen: number[] = []
    for (let i = 0; i < 60; i++) {
      const reply = await listPets(server, i % 2 === 0 ? {} : { authorization: 'Bearer nope' })
      expect(reply.status).toBe(401)
      if (i === 0) expectSpecResponse(reply, 'listPets')
      const state = limits(reply)
      expect(state.policy).toBe('"minute";q=60;w=60, "day";q=1000;w=86400')
      expect(state.limit).toBe(60)
      expect(state.day.r).toBe(999 - i)
      seen.push(state.remaining)
    }
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i))

    const over = await listPets(server)
    expect(over.status).toBe(429)
    expectErrorBody(over, 'rate_limited')
    expectSpecResponse(over, 'listPets')
    expect(limits(over)).toMatchObject({ limit: 60, remaining: 0 })
    // The public spec document counts against the IP like any request without a key.
    expect((await call(`${server.api}/openapi.json`)).status).toBe(429)
    // An IP is limited, never banned.
    for (let i = 0; i < 15; i++) expectErrorBody(await listPets(server), 'rate_limited')
    // A key that was sent but is not valid is told so first (401), and still counted.
    const revoked = await server.issueKey({ plan: 'free' })
    const revokedAuth = { authorization: `Bearer ${revoked}` }
    expect((await listPets(server, revokedAuth)).status).toBe(200)
    const cli = openSqliteStore(dbPath)
    const newest = (await cli.keys.list()).at(-1)
    await cli.keys.revoke(newest?.id ?? '')
    await cli.close()
    await sleep(10)
    for (const headers of [revokedAuth, { authorization: 'Bearer nope' }]) {
      const refused = await listPets(server, headers)
      expectErrorBody(refused, 'unauthorized')
      expectSpecResponse(refused, 'listPets')
      expect(limits(refused)).toMatchObject({ limit: 60, remaining: 0 })
    }
    // A valid key is counted on its own, not against the IP.
    const key = await server.issueKey({ plan: 'free' })
    const keyed = await listPets(server, { authorization: `Bearer ${key}` })
    expect(keyed.status).toBe(200)
    expect(limits(keyed).remaining).toBe(59)
  })

  it('gives exactly 60 successes and 40 429s to 100 parallel requests on a fresh free key', async (test) => {
    const server = await serveForTest(test)
    const key = await server.issueKey({ plan: 'free' })
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => listPets(server, { authorization: `Bearer ${key}` })),
    )
    const ok = replies.filter((reply) => reply.status === 200)
    const limited = replies.filter((reply) => reply.status === 429)
    expect(ok).toHaveLength(60)
    expect(limited).toHaveLength(40)
    expect(ok.map((reply) => limits(reply).remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    )
    // With the default threshold of 10, the tenth refused request starts a ban.
    const codes = limited.map((reply) => errorOf(reply).code)
    expect(codes.filter((code) => code === 'rate_limited')).toHaveLength(9)
    expect(codes.filter((code) => code === 'api_key_banned')).toHaveLength(31)
    for (const reply of limited) {
      expectSpecResponse(reply, 'listPets')
      expect(limits(reply).remaining).toBe(0)
      expect(Number(limits(reply).retryAfter)).toBeGreaterThanOrEqual(1)
    }
    // Both windows counted each request at once: the 60 that passed were the day's first 60.
    expect(ok.map((reply) => limits(reply).day.r).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => 940 + i),
    )
  })

  it('limits an enterprise key by its own numbers, the day below the minute', async (test) => {
    const server = await serveForTest(test)
    const auth = await enterpriseKey(server, 5, 2)
    const replies: Reply[] = []
    for (let i = 0; i < 3; i++) replies.push(await listPets(server, auth))
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 429])
    for (const reply of replies) {
      expect(limits(reply).policy).toBe('"minute";q=5;w=60, "day";q=2;w=86400')
      expect(limits(reply).limit).toBe(2)
    }
    expect(replies.map((reply) => limits(reply).remaining)).toEqual([1, 0, 0])
    const refused = limits(replies[2] as Reply)
    expect(refused.minute.r).toBe(2)
    // Only the day's end lets a request through, so that is the wait.
    expect(Number(refused.retryAfter)).toBe(refused.day.t)
    expect(refused.day.t).toBeGreaterThan(86_000)
  })

  it('creates no pet on a 429, and counts every outcome against the key', async (test) => {
    const server = await serveForTest(test)
    const auth = await enterpriseKey(server, 3, 100)
    const reader = await enterpriseKey(server, 100, 100)
    const bad = await postJson(`${server.api}/pets`, newPet({ name: '' }), auth)
    expect(bad.status).toBe(400)
    expectSpecResponse(bad, 'createPet')
    expect(limits(bad).remaining).toBe(2)
    const missing = await call(`${server.api}/pets/999`, { headers: auth })
    expect(missing.status).toBe(404)
    expect(limits(missing).remaining).toBe(1)
    const created = await postJson(`${server.api}/pets`, newPet(), auth)
    expect(created.status).toBe(201)
    expect(limits(created).remaining).toBe(0)

    const refused = await postJson(`${server.api}/pets`, newPet({ name: 'Fido' }), auth)
    expect(refused.status).toBe(429)
    expectSpecResponse(refused, 'createPet')
    const pets = await call(`${server.api}/pets?limit=100`, { headers: reader })
    expect(petsOf(pets)).toEqual([petOf(created)])
  })

  it('counts no OPTIONS request and reports limits on unknown paths', async (test) => {
    const server = await serveForTest(test)
    const auth = await enterpriseKey(server, 10, 100)
    for (let i = 0; i < 3; i++) {
      const preflight = await call(`${server.api}/pets`, {
        method: 'OPTIONS',
        headers: { ...auth, origin: 'https://app.example', 'access-control-request-method': 'GET' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('x-ratelimit-remaining')).toBeNull()
    }
    const list = await listPets(server, auth)
    expect(limits(list).remaining).toBe(9)
    const unknown = await call(`${server.api}/nowhere`, { headers: auth })
    expect(unknown.status).toBe(404)
    expect(limits(unknown).remaining).toBe(8)
  })
})
