import { expect, it } from 'vitest'
import { deprecationHeaders } from '../../src/spec/deprecation.js'
import { type OperationSpec, operationById, specOperations } from '../../src/spec/operations.js'

const links = { docsPath: '/docs', basePath: '/v1' }

it('derives getPet headers from the spec in the formats of HEADERS.md', () => {
  expect(deprecationHeaders(operationById('getPet'), specOperations, links)).toEqual({
    deprecation: '@1767225600',
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    link: '</docs#operation/getPet>; rel="deprecation"; type="text/html", </docs#section/Deprecation-policy>; rel="sunset"; type="text/html", </v1/pets>; rel="successor-version"',
  })
})

it('leaves current operations alone', () => {
  expect(deprecationHeaders(operationById('listPets'), specOperations, links)).toBeUndefined()
})

it('refuses a deprecated operation whose dates are missing or out of order', () => {
  const base = operationById('getPet')
  const edited = (extensions: Record<string, unknown>): OperationSpec => ({ ...base, extensions })
  expect(() =>
    deprecationHeaders(edited({ 'x-sunset': '2030-12-05T00:00:00Z' }), specOperations, links),
  ).toThrow('x-deprecated-at')
  expect(() =>
    deprecationHeaders(
      edited({ 'x-deprecated-at': '2031-01-01T00:00:00Z', 'x-sunset': '2030-12-05T00:00:00Z' }),
      specOperations,
      links,
    ),
  ).toThrow('earlier')
  expect(() =>
    deprecationHeaders(
      edited({
        'x-deprecated-at': '2026-01-01T00:00:00Z',
        'x-sunset': '2030-12-05T00:00:00Z',
        'x-successor': 'nope',
      }),
      specOperations,
      links,
    ),
  ).toThrow('nope')
})
