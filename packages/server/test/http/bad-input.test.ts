/**
 * A barrage of bad and odd input: never a 5xx, always a correct Error body, nothing partially
 * written, accepted names round-trip byte for byte, and the server stays healthy.
 */
import { request } from 'node:http'
import type { Pet } from '@petstore/types'
import { operationsOf } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  newPet,
  petJsonWith,
  petOf,
  petsOf,
  petWith,
  postJson,
  type Reply,
  startWithKey,
  type TestServer,
} from '../helpers.js'

let server: TestServer
let auth: { authorization: string }
const accepted: Pet[] = []
/** A valid createPet body as JSON text, for the tests that break it byte by byte. */
const petJson = JSON.stringify(newPet())

beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
})
afterAll(async () => server.close())

function expectRejected(reply: Reply, operationId: string, code = 'invalid_request') {
  expect(reply.status, reply.text).toBeLessThan(500)
  expectSpecResponse(reply, operationId)
  expectErrorBody(reply, code)
}

async function createRaw(text: string | Uint8Array, contentType = 'application/json') {
  return call(`${server.api}/pets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': contentType },
    body: text,
  })
}

describe('strict integers in paths and queries', () => {
  const malformed = [
    '010',
    '+5',
    '5.0',
    '1e1',
    '0x10',
    '0',
    '-1',
    '%20',
    '1%20',
    '%201',
    '%D9%A1',
    '1_000',
    'Infinity',
    'NaN',
    '9223372036854775808',
    '18446744073709551616',
    '99999999999999999999999',
  ]

  it.each(malformed)('petId %s is 400', async (petId) => {
    expectRejected(await call(`${server.api}/pets/${petId}`, { headers: auth }), 'getPet')
  })

  // Bad percent-encoding in any query parameter, whatever its schema: a free-text one would
  // otherwise take U+FFFD or a literal `%` the client never meant.
  it.each([
    ['an overlong encoding', 'status=%C0%AE'],
    ['a lone surrogate', 'status=%ED%A0%80'],
    ['a truncated sequence', 'status=%E2%82'],
    ['a percent without two hex digits', 'status=%zz'],
    ['a bad name', '%FF=1'],
  ])('a query with %s is 400 naming the encoding', async (_, query) => {
    const reply = await call(`${server.api}/pets?limit=1&${query}`, { headers: auth })
    expectRejected(reply, 'listPets')
    expect((reply.body as { message: string }).message).toContain('percent-encoded UTF-8')
  })

  it('a query percent-encoding valid UTF-8 is read as it decodes', async () => {
    const reply = await call(`${server.api}/pets?limit=1&status=%61vailable`, { headers: auth })
    expect(reply.status).toBe(200)
  })

  it('an empty petId is 400 or 404, never 5xx', async () => {
    const reply = await call(`${server.api}/pets/`, { headers: auth })
    expect([400, 404]).toContain(reply.status)
    expectErrorBody(reply)
  })

  it('the largest int64 petId is a well-formed unknown id: 404', async () => {
    expectRejected(
      await call(`${server.api}/pets/9223372036854775807`, { headers: auth }),
      'getPet',
      'not_found',
    )
    expectRejected(
      await call(`${server.api}/pets/9007199254740993`, { headers: auth }),
      'getPet',
      'not_found',
    )
  })

  it.each([...malformed, '', '101'])('limit=%s is 400', async (limit) => {
    expectRejected(await call(`${server.api}/pets?limit=${limit}`, { headers: auth }), 'listPets')
  })

  it.each([
    'limit=5&limit=5',
    'status=sold&status=sold',
    'cursor=a&cursor=b',
    'status=',
    'status=AVAILABLE',
    'status[]=sold',
  ])('%s is 400', async (query) => {
    const reply = await call(`${server.api}/pets?${query}`, { headers: auth })
    if (query === 'status[]=sold') {
      expect(reply.status).toBe(200)
      return
    }
    expectRejected(reply, 'listPets')
  })
})

describe('bodies', () => {
  it.each([
    '{',
    petJson.slice(0, petJson.indexOf(':') + 1),
    `${petJson.slice(0, -1)},}`,
    petJson.replaceAll('"', "'"),
    'nul',
    petJson.replace(',', ' '),
    '\u0000',
    'null',
    '"Rex"',
    '1',
    'true',
    '[]',
    `[${petJson}]`,
    '   ',
  ])('malformed or non-object body %j is 400', async (text) => {
    expectRejected(await createRaw(text), 'createPet')
  })

  it('an empty body is 400', async () => {
    expectRejected(await createRaw(''), 'createPet')
  })

  it('deeply nested JSON is 400, not a crash', async () => {
    const depth = 20_000
    expectRejected(await createRaw(`${'['.repeat(depth)}${']'.repeat(depth)}`), 'createPet')
    expectRejected(
      await createRaw(`${'{"a":'.repeat(depth / 2)}1${'}'.repeat(depth / 2)}`),
      'createPet',
    )
    expectRejected(
      await createRaw(petJsonWith('name', `${'['.repeat(depth)}${']'.repeat(depth)}`)),
      'createPet',
    )
  })

  it('a body over 64 KiB is 413, one just under is judged on its content', async () => {
    expectRejected(
      await createRaw(JSON.stringify(newPet({ name: 'x'.repeat(66_000) }))),
      'createPet',
      'payload_too_large',
    )
    expectRejected(
      await createRaw(JSON.stringify(newPet({ name: 'x'.repeat(65_000) }))),
      'createPet',
    )
  })

  it('a chunked body is read whole, and is 413 once it passes 64 KiB', async () => {
    // No Content-Length: only the bytes that arrive count.
    const chunked = (parts: string[]) =>
      call(`${server.api}/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
            controller.close()
          },
        }),
        duplex: 'half',
      } as RequestInit)
    const pet = JSON.stringify(newPet({ name: 'Chunked' }))
    const whole = await chunked([pet.slice(0, 5), pet.slice(5, 17), pet.slice(17)])
    expect(whole.status, whole.text).toBe(201)
    accepted.push(petOf(whole))
    const padding = ' '.repeat(40_000)
    expectRejected(await chunked([padding, padding, pet]), 'createPet', 'payload_too_large')
  })

  it.each([
    petWith('name', 5),
    petWith('name', null),
    petWith('name', ['Rex']),
    petWith('name', { first: 'Rex' }),
    petWith('categoryId', true),
    petWith('categoryId', null),
    petWith('categoryId', -1),
    petWith('categoryId', 1e300),
    petWith('status', 1),
    petWith('status', null),
    { ...newPet(), extra: true },
  ])('wrong types %j are 400', async (body) => {
    expectRejected(await postJson(`${server.api}/pets`, body, auth), 'createPet')
  })

  it.each([
    `${petJson.slice(0, -1)},"__proto__":{"polluted":true}}`,
    `${petJson.slice(0, -1)},"constructor":{"prototype":{"polluted":true}}}`,
    `{"__proto__":${petJson}}`,
  ])('prototype keys %s are 400 and pollute nothing', async (text) => {
    expectRejected(await createRaw(text), 'createPet')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/json-patch+json',
    'application/json; charset=latin1',
  ])('content type %s is 415', async (type) => {
    expectRejected(await createRaw(petJson, type), 'createPet', 'unsupported_media_type')
  })
})

/** A request with `body` by node:http, which (unlike fetch) sends one with any method. */
function withBody(method: string, url: string, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // Node sends GET and DELETE bodies unframed unless told their length.
    const length = String(Buffer.byteLength(body))
    const headers = { ...auth, 'content-type': 'application/json', 'content-length': length }
    const sent = request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const fields = Object.entries(response.headers).map(([name, value]) => [
          name,
          String(value),
        ])
        resolve({
          status: response.statusCode ?? 0,
          headers: new Headers(fields as [string, string][]),
          text,
          body: text === '' ? undefined : JSON.parse(text),
        })
      })
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

describe('a body sent to an operation that declares none', () => {
  const bodiless = operationsOf(openapiDocument).filter(
    ({ operation }) => operation.requestBody === undefined,
  )

  it('is tried on every such operation of the spec', () => {
    expect(bodiless.length).toBeGreaterThan(0)
  })

  it.each(bodiless.map((entry) => [String(entry.operation.operationId), entry] as const))(
    '%s answers 400 naming the body, and changes nothing',
    async (operationId, { path, method }) => {
      const pet = petOf(await postJson(`${server.api}/pets`, newPet(), auth))
      accepted.push(pet)
      const url = `${server.api}${path.replace(/\{[^}]+\}/g, String(pet.id))}`
      const reply = await withBody(method.toUpperCase(), url, JSON.stringify(newPet()))
      expect(reply.status, reply.text).toBe(400)
      // An OPTIONS operation is answered by the path's OPTIONS route, named by method and path.
      const options = method === 'options'
      if (options) expectErrorBody(reply, 'invalid_request')
      else expectRejected(reply, operationId)
      const label = options ? `OPTIONS ${path}` : operationId
      expect(errorOf(reply).message).toBe(`${label} takes no request body`)
      const read = await call(`${server.api}/pets/${pet.id}`, { headers: auth })
      expect(petOf(read)).toEqual(pet)
    },
  )
})

describe('what JSON.parse would hide', () => {
  const utf8 = (text: string) => Buffer.from(text, 'utf8')

  it.each([
    ['\\xff\\xfe', Buffer.from([0xff, 0xfe])],
    ['a lone surrogate encoded as UTF-8 (ED A0 80)', Buffer.from([0xed, 0xa0, 0x80])],
    ['an overlong encoding (C0 AE)', Buffer.from([0xc0, 0xae])],
    ['a truncated sequence (E2 82)', Buffer.from([0xe2, 0x82])],
  ])('a name with %s is 400 naming the body, nothing stored', async (_, bytes) => {
    const [before = '', after = ''] = petJsonWith('name', '"Rex<bytes>"').split('<bytes>')
    const body = Buffer.concat([utf8(before), bytes, utf8(after)])
    const reply = await createRaw(body)
    expectRejected(reply, 'createPet')
    expect(errorOf(reply).message).toMatch(/^body is not valid UTF-8/)
  })

  it('a byte order mark is 400, as before', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(petJson)])
    expectRejected(await createRaw(body), 'createPet')
  })

  it.each([
    '0.99999999999999999999',
    '1.0',
    '1e0',
    '1E0',
    '10e-1',
    '1.00000000000000001',
    '9007199254740993',
    '-0.0',
  ])('categoryId %s is 400: integers are plain digits held exactly', async (literal) => {
    const reply = await createRaw(petJsonWith('categoryId', literal))
    expectRejected(reply, 'createPet')
    expect(errorOf(reply).message).toContain('body.categoryId')
  })

  it.each([
    ['{"name":"Rex","categoryId":"x","categoryId":2}', 'body', 'categoryId'],
    ['{"name":"Rex","name":"Rex","categoryId":1}', 'body', 'name'],
    ['{"name":"Rex","categoryId":1,"n\\u0061me":"Max"}', 'body', 'name'],
    ['{"name":"Rex","categoryId":1,"x":{"a":1,"a":2}}', 'body.x', 'a'],
    ['{"name":"Rex","categoryId":1,"x":[{},{"b":1,"b":1}]}', 'body.x.1', 'b'],
  ])('duplicate keys %s are 400 naming the object and key', async (text, where, key) => {
    const reply = await createRaw(text)
    expectRejected(reply, 'createPet')
    expect(errorOf(reply).message).toBe(`${where} has the property "${key}" more than once`)
  })

  it.each([
    '[{},"x"]',
    '{"a":[{},"b"]}',
    petJsonWith('status', '[{},"x"]'),
    petJsonWith('status', '[[],{"a":1}]'),
  ])('a value after a closed container %s is judged like any other, not a crash', async (text) => {
    expectRejected(await createRaw(text), 'createPet')
  })

  it('the same key in different objects, and 1.5 outside integer fields, pass the parser', async () => {
    const reply = await createRaw(`${petJson.slice(0, -1)},"x":{"name":1.5}}`)
    expectRejected(reply, 'createPet')
    expect(errorOf(reply).message).toMatch(/x/)
  })
})

describe('names', () => {
  const good = [
    'Zoë',
    '🐕‍🦺 Service dog',
    'e\u0301clair',
    '小狗',
    'שלום',
    "Robert'); DROP TABLE pets;--",
    '<script>alert(1)</script>',
    '$' + '{jndi:ldap://x}',
    '../../etc/passwd',
    '%s%n',
    ' leading and trailing ',
    '🐈'.repeat(100),
    'x'.repeat(100),
  ]

  it.each(good)('accepts %j and returns it byte for byte', async (name) => {
    const reply = await postJson(`${server.api}/pets`, newPet({ name }), auth)
    expectSpecResponse(reply, 'createPet')
    expect(reply.status).toBe(201)
    const pet = petOf(reply)
    expect(Buffer.from(pet.name)).toEqual(Buffer.from(name))
    const read = await call(`${server.api}/pets/${pet.id}`, { headers: auth })
    expect(Buffer.from(petOf(read).name)).toEqual(Buffer.from(name))
    accepted.push(pet)
  })

  it.each([
    ['101 code points', JSON.stringify('🐈'.repeat(101))],
    ['NUL', '"a\\u0000b"'],
    ['a newline', '"a\\nb"'],
    ['a tab', '"a\\tb"'],
    ['unit separator', '"a\\u001fb"'],
    ['DEL', '"a\\u007fb"'],
    ['a lone high surrogate', '"a\\ud800b"'],
    ['a lone low surrogate', '"\\udc00"'],
    ['only white space', '"\\u00a0 \\u2003"'],
  ])('rejects a name with %s', async (_, nameJson) => {
    const reply = await createRaw(petJsonWith('name', nameJson))
    expectRejected(reply, 'createPet')
    expect(errorOf(reply).message).toContain('body.name')
  })
})

it('wrote exactly the accepted pets and is still healthy', async () => {
  const seen: Pet[] = []
  let url: string | undefined = `${server.api}/pets?limit=100`
  while (url !== undefined) {
    const page = await call(url, { headers: auth })
    expect(page.status).toBe(200)
    seen.push(...petsOf(page))
    const next = page.headers.get('link')?.match(/<([^>]+)>; rel="next"/)?.[1]
    url = next === undefined ? undefined : `${server.url}${next}`
  }
  expect(seen.map(({ id, name }) => ({ id, name }))).toEqual(
    accepted.map(({ id, name }) => ({ id, name })),
  )
  expect((await call(`${server.url}/healthz`)).status).toBe(200)
})

describe('what a message echoes of the request', () => {
  // 30,000: twice that still fits in a body (64 KiB).
  const long = 'p'.repeat(30_000)

  it.each([
    ['an unknown property', `{"name":"Rex","categoryId":1,"${long}":1}`],
    ['a repeated key', `{"name":"Rex","categoryId":1,"${long}":1,"${long}":2}`],
    ['an unknown property inside a long key', `{"${long}":{"a":1,"a":2}}`],
  ])('cuts %s of 30,000 characters to 64 and an ellipsis', async (_, body) => {
    const reply = await createRaw(body)
    expectRejected(reply, 'createPet')
    const { message } = errorOf(reply)
    expect(message).toContain(`${'p'.repeat(64)}…`)
    expect(message).not.toContain('p'.repeat(65))
    expect(reply.text.length).toBeLessThan(400)
  })

  it('cuts an unknown path to 200 characters', async () => {
    const reply = await call(`${server.api}/${'q'.repeat(8000)}`, { headers: auth })
    expectErrorBody(reply, 'not_found')
    expect(errorOf(reply).message).toMatch(/^no such path: \/v1\/q{196}…$/)
  })
})
