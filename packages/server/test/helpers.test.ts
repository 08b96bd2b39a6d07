/** The spec checker itself must catch drift, or every test that relies on it proves nothing. */
import { dereference } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { expect, it } from 'vitest'
import { expectSpecResponse, type Reply } from './helpers.js'

interface HeaderObject {
  required?: boolean
  example?: unknown
}

/** Every header listPets' 200 requires, with the spec's example value. */
const requiredHeaders = Object.entries(
  dereference(
    openapiDocument.paths['/pets'].get.responses['200'].headers,
    openapiDocument,
  ) as Record<string, HeaderObject>,
)
  .filter(([, header]) => header.required === true)
  .map(([name, header]) => [name.toLowerCase(), String(header.example)] as const)

const v1Headers = { ...Object.fromEntries(requiredHeaders), 'content-type': 'application/json' }

/** A pet as the spec's example writes it. */
const pet = openapiDocument.components.schemas.Pet.examples[0]

it('finds the headers listPets requires, each with an example', () => {
  expect(
    requiredHeaders.length,
    "listPets' 200 in spec/openapi.yaml requires no header",
  ).toBeGreaterThan(0)
  expect(requiredHeaders.filter(([, example]) => example === 'undefined')).toEqual([])
})

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    body,
    text: JSON.stringify(body),
    headers: new Headers({ ...v1Headers, ...headers }),
  }
}

it('accepts a response the spec declares', () => {
  expectSpecResponse(reply(200, [pet]), 'listPets')
})

const failure = (status: number, code: string) => reply(status, { code, message: 'x', status })

it('accepts the limits on a failure after the request was counted, and their absence before', () => {
  expectSpecResponse(failure(500, 'internal_error'), 'listPets')
  const uncounted = failure(503, 'service_unavailable')
  uncounted.headers.set('retry-after', '1')
  const limits = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']
  for (const name of [...limits, 'ratelimit', 'ratelimit-policy']) uncounted.headers.delete(name)
  expectSpecResponse(uncounted, 'listPets')
})

it.each([
  ['a failure with a malformed limit', failure(500, 'internal_error'), 'x-ratelimit-limit', 'many'],
  [
    'a failure with a header declared only elsewhere',
    failure(500, 'internal_error'),
    'location',
    '/v1/pets/1',
  ],
])('rejects %s', (_, bad, name, value) => {
  bad.headers.set(name, value)
  expect(() => expectSpecResponse(bad, 'listPets')).toThrow()
})

it.each([
  ['an undeclared status', reply(404, { code: 'not_found', message: 'x', status: 404 })],
  ['an extra body property', reply(200, [{ ...pet, age: 3 }])],
  ['a missing required header', reply(200, [], { [requiredHeaders[0]?.[0] ?? '']: '' })],
  ['a header declared only elsewhere', reply(200, [], { deprecation: '@1' })],
  [
    'an Error status that differs from HTTP',
    reply(400, { code: 'invalid_request', message: 'x', status: 401 }),
  ],
])('rejects %s', (_, bad) => {
  for (const [name] of requiredHeaders) if (bad.headers.get(name) === '') bad.headers.delete(name)
  expect(() => expectSpecResponse(bad, 'listPets')).toThrow()
})
