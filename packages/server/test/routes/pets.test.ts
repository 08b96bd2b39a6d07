/**
 * The three operations over real HTTP: every status and header the spec declares for them, each
 * response checked against the spec by expectSpecResponse.
 */
import { type NewPet, petStatusValues } from '@petstore/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { componentSchema } from '../../src/spec/operations.js'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  newPet,
  petOf,
  petsOf,
  petWith,
  petWithout,
  postJson,
  startWithKey,
  type TestServer,
} from '../helpers.js'

let server: TestServer
let auth: { authorization: string }
let key: string

beforeAll(async () => {
  ;({ server, auth, key } = await startWithKey())
})
afterAll(async () => server.close())

describe('createPet', () => {
  it('201 with the Pet, status defaulted, and Location', async () => {
    const reply = await postJson(`${server.api}/pets`, newPet(), auth)
    expectSpecResponse(reply, 'createPet')
    expect(reply.status).toBe(201)
    const pet = petOf(reply)
    expect(pet).toEqual({ ...newPet(), id: pet.id, status: 'available' })
    expect(reply.headers.get('location')).toBe(`/v1/pets/${pet.id}`)
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
    expect(reply.headers.get('cache-control')).toBe('no-store')
  })

  it('keeps an explicit status and accepts a charset parameter', async () => {
    const reply = await postJson(
      `${server.api}/pets`,
      newPet({ name: 'Whiskers', categoryId: 2, status: 'pending' }),
      {
        ...auth,
        'content-type': 'application/json; charset=utf-8',
      },
    )
    expectSpecResponse(reply, 'createPet')
    expect(petOf(reply)).toMatchObject({ name: 'Whiskers', status: 'pending' })
  })

  const required = (componentSchema('NewPet').required ?? []) as (keyof NewPet)[]

  it('finds the properties NewPet requires in the spec', () => {
    expect(required.length, 'NewPet in spec/openapi.yaml requires no property').toBeGreaterThan(0)
  })

  it.each(required)('400 without %s, naming it', async (key) => {
    const reply = await postJson(`${server.api}/pets`, petWithout(key), auth)
    expectSpecResponse(reply, 'createPet')
    expectErrorBody(reply, 'invalid_request')
    expect(errorOf(reply).message).toContain(`body must have required property ${key}`)
  })

  it.each([
    [petWith('name', ''), 'body.name'],
    [petWith('name', '   '), 'body.name'],
    [petWith('name', 'x'.repeat(101)), 'body.name'],
    [petWith('categoryId', 0), 'body.categoryId'],
    [petWith('categoryId', 9007199254740992), 'body.categoryId'],
    [petWith('categoryId', 1.5), 'body.categoryId'],
    [petWith('categoryId', '1'), 'body.categoryId'],
    [petWith('status', 'lost'), 'body.status'],
    [{ ...newPet(), id: 5 }, 'property id'],
    [[], 'body must be an object'],
  ])('400 for %j naming the field', async (body, message) => {
    const reply = await postJson(`${server.api}/pets`, body, auth)
    expectSpecResponse(reply, 'createPet')
    expectErrorBody(reply, 'invalid_request')
    expect(errorOf(reply).message).toContain(message)
  })

  it('415 for another or a missing content type, 413 over 64 KiB', async () => {
    const text = await call(`${server.api}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: '{}',
    })
    expectSpecResponse(text, 'createPet')
    expectErrorBody(text, 'unsupported_media_type')
    const none = await call(`${server.api}/pets`, {
      method: 'POST',
      headers: auth,
      body: new Uint8Array(Buffer.from(JSON.stringify(newPet()))),
    })
    expectSpecResponse(none, 'createPet')
    expectErrorBody(none, 'unsupported_media_type')
    const huge = await postJson(
      `${server.api}/pets`,
      { ...newPet(), pad: 'x'.repeat(70_000) },
      auth,
    )
    expectSpecResponse(huge, 'createPet')
    expectErrorBody(huge, 'payload_too_large')
  })

  it('401 before any validation or media-type check', async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${key}` },
    ]) {
      const reply = await call(`${server.api}/pets`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: 'not json',
      })
      expectSpecResponse(reply, 'createPet')
      expectErrorBody(reply, 'unauthorized')
    }
  })
})

describe('listPets', () => {
  it('200 with pets ordered by id and the default limit', async () => {
    const reply = await call(`${server.api}/pets`, { headers: auth })
    expectSpecResponse(reply, 'listPets')
    const ids = petsOf(reply).map((pet) => pet.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
  })

  it('sends every page as the spec serializer writes its pets, whatever their names', async () => {
    // Pages come from the store as JSON text (Page.json), not through the serializer:
    // each must match the schema and equal, byte for byte, the serialized pets getPet sends.
    const own = await startWithKey()
    const names = [
      'say "hi"',
      'back\\slash \\u0041 \\n',
      'no\u00a0break, zero\u200bwidth, bom\ufeff',
      'line\u2028para\u2029',
      'Ünïcødé 🐕🐈‍⬛ 日本',
      '</script><!--',
    ]
    for (const name of names) {
      const created = await postJson(
        `${own.server.api}/pets`,
        newPet({ name, categoryId: 3 }),
        own.auth,
      )
      expect(created.status).toBe(201)
    }
    const listed: string[] = []
    let next: string | undefined = `${own.server.api}/pets?limit=4`
    while (next !== undefined) {
      const reply = await call(next, { headers: own.auth })
      expectSpecResponse(reply, 'listPets')
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8')
      const serialized: string[] = []
      for (const pet of petsOf(reply)) {
        serialized.push(
          (await call(`${own.server.api}/pets/${pet.id}`, { headers: own.auth })).text,
        )
      }
      expect(reply.text).toBe(`[${serialized.join(',')}]`)
      listed.push(...petsOf(reply).map((pet) => pet.name))
      const link = /<([^>]+)>; rel="next"/.exec(reply.headers.get('link') ?? '')?.[1]
      next = link === undefined ? undefined : new URL(link, own.server.url).href
    }
    expect(listed).toEqual(names)
    await own.server.close()
  })

  it('filters by status', async () => {
    const reply = await call(`${server.api}/pets?status=pending`, { headers: auth })
    expectSpecResponse(reply, 'listPets')
    expect(petsOf(reply).every((pet) => pet.status === 'pending')).toBe(true)
  })

  it.each([
    ['limit=0', 'query parameter limit must be an integer from 1 to 100'],
    ['limit=101', 'query parameter limit must be an integer from 1 to 100'],
    ['limit=abc', 'query parameter limit must be an integer from 1 to 100'],
    ['status=lost', `query parameter status must be one of ${petStatusValues.join(', ')}`],
    ['status=available&status=sold', 'query parameter status must be given at most once'],
    ['cursor=', 'query parameter cursor'],
  ])('400 for %s', async (query, message) => {
    const reply = await call(`${server.api}/pets?${query}`, { headers: auth })
    expectSpecResponse(reply, 'listPets')
    expectErrorBody(reply, 'invalid_request')
    expect(errorOf(reply).message).toContain(message)
  })

  it('401 without a key, even with invalid parameters', async () => {
    const reply = await call(`${server.api}/pets?limit=0`)
    expectSpecResponse(reply, 'listPets')
    expectErrorBody(reply, 'unauthorized')
    expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="petstore"')
  })
})

describe('getPet', () => {
  const deprecationHeaders = (reply: { headers: Headers }) => ({
    deprecation: reply.headers.get('deprecation'),
    sunset: reply.headers.get('sunset'),
    link: reply.headers.get('link'),
  })
  const expected = {
    deprecation: '@1767225600',
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    link: '</docs#operation/getPet>; rel="deprecation"; type="text/html", </docs#section/Deprecation-policy>; rel="sunset"; type="text/html", </v1/pets>; rel="successor-version"',
  }

  it('200 with the pet and the deprecation headers', async () => {
    const created = await postJson(`${server.api}/pets`, newPet({ name: 'Milo' }), auth)
    const pet = petOf(created)
    const reply = await call(`${server.api}/pets/${pet.id}`, { headers: auth })
    expectSpecResponse(reply, 'getPet')
    expect(reply.body).toEqual(created.body)
    expect(deprecationHeaders(reply)).toEqual(expected)
  })

  it('404 for an unknown id, 400 for a bad one, 401 without a key: all deprecated', async () => {
    const missing = await call(`${server.api}/pets/999999`, { headers: auth })
    expectSpecResponse(missing, 'getPet')
    expectErrorBody(missing, 'not_found')
    expect(errorOf(missing).message).toBe('pet 999999 does not exist')
    const bad = await call(`${server.api}/pets/abc`, { headers: auth })
    expectSpecResponse(bad, 'getPet')
    expectErrorBody(bad, 'invalid_request')
    const anonymous = await call(`${server.api}/pets/abc`, {
      headers: { authorization: 'Bearer psk_live_wrong' },
    })
    expectSpecResponse(anonymous, 'getPet')
    expectErrorBody(anonymous, 'unauthorized')
    expect(anonymous.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="petstore", error="invalid_token", error_description="[^"]+"$/,
    )
    for (const reply of [missing, bad, anonymous])
      expect(deprecationHeaders(reply)).toEqual(expected)
  })

  it('HEAD answers like GET without a body', async () => {
    const reply = await call(`${server.api}/pets/1`, { method: 'HEAD', headers: auth })
    expect(reply.status).toBe(200)
    expect(reply.text).toBe('')
    expect(deprecationHeaders(reply)).toEqual(expected)
  })
})

describe('authentication', () => {
  it('accepts the Bearer scheme in any case', async () => {
    const lower = await call(`${server.api}/pets`, { headers: { authorization: `bearer ${key}` } })
    expectSpecResponse(lower, 'listPets')
    expect(lower.status).toBe(200)
  })

  it('challenges without an error for another scheme, with invalid_token for a bad bearer token', async () => {
    const cases = [
      [`Basic ${key}`, 'Bearer realm="petstore"'],
      [`Bearer ${key} extra`, 'Bearer realm="petstore"'],
      [`Bearer ${key}0`, 'Bearer realm="petstore", error="invalid_token"'],
      ['Bearer psk_live_short', 'Bearer realm="petstore", error="invalid_token"'],
    ]
    for (const [authorization, challenge] of cases) {
      const reply = await call(`${server.api}/pets`, {
        headers: { authorization: String(authorization) },
      })
      expectErrorBody(reply, 'unauthorized')
      expect(reply.headers.get('www-authenticate')?.startsWith(String(challenge))).toBe(true)
      if (!String(challenge).includes('error=')) {
        expect(reply.headers.get('www-authenticate')).toBe(challenge)
      }
    }
  })

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const echoed = await call(`${server.api}/pets`, {
      headers: { ...auth, 'x-request-id': 'client-42.a:b' },
    })
    expect(echoed.headers.get('x-request-id')).toBe('client-42.a:b')
    const replaced = await call(`${server.api}/pets`, {
      headers: { ...auth, 'x-request-id': 'bad id with spaces' },
    })
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const anonymous = await call(`${server.api}/pets`, { headers: { 'x-request-id': 'anon-1' } })
    expect(anonymous.headers.get('x-request-id')).toBe('anon-1')
  })
})

describe('rate limits on the operations', () => {
  it('429 with Retry-After on each operation once the key is over its limit', async () => {
    const limited = {
      authorization: `Bearer ${await server.issueKey({ plan: 'enterprise', perMinute: 1, perDay: 100 })}`,
    }
    expect((await call(`${server.api}/pets`, { headers: limited })).status).toBe(200)
    const replies = {
      listPets: await call(`${server.api}/pets`, { headers: limited }),
      createPet: await postJson(`${server.api}/pets`, newPet(), limited),
      getPet: await call(`${server.api}/pets/1`, { headers: limited }),
    }
    for (const [operationId, reply] of Object.entries(replies)) {
      expectSpecResponse(reply, operationId)
      expectErrorBody(reply, 'rate_limited')
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(reply.headers.get('x-ratelimit-remaining')).toBe('0')
    }
    expect(replies.getPet.headers.get('deprecation')).toBe('@1767225600')
  })
})
