/** The spec checker itself must catch drift, or every test that relies on it proves nothing. */
import { expect, it } from 'vitest'
import { expectSpecResponse, type Reply } from './helpers.js'

const v1Headers = {
  'x-request-id': 'r1',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1800000000',
  'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
  ratelimit: '"minute";r=59;t=60, "day";r=999;t=86400',
  'content-type': 'application/json',
}

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    body,
    text: JSON.stringify(body),
    headers: new Headers({ ...v1Headers, ...headers }),
  }
}

it('accepts a response the spec declares', () => {
  expectSpecResponse(
    reply(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]),
    'listPets',
  )
})

it.each([
  ['an undeclared status', reply(404, { code: 'not_found', message: 'x', status: 404 })],
  [
    'an extra body property',
    reply(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 'available', age: 3 }]),
  ],
  ['a missing required header', reply(200, [], { 'x-ratelimit-limit': '' })],
  ['a header declared only elsewhere', reply(200, [], { deprecation: '@1' })],
  [
    'an Error status that differs from HTTP',
    reply(400, { code: 'invalid_request', message: 'x', status: 401 }),
  ],
])('rejects %s', (_, bad) => {
  if (bad.headers.get('x-ratelimit-limit') === '') bad.headers.delete('x-ratelimit-limit')
  expect(() => expectSpecResponse(bad, 'listPets')).toThrow()
})
