import { expect, it } from 'vitest'
import { deprecationHeaders } from '../../src/spec/deprecation.js'
import { type OperationSpec, specOperations } from '../../src/spec/operations.js'

const links = { docsPath: '/docs', basePath: '/v1' }
const [first] = specOperations as [OperationSpec]
const [successor] = specOperations.filter((op) => op.method === 'GET' && op !== first)
const deprecated = (extensions: Record<string, unknown>): OperationSpec => ({
  ...first,
  deprecated: true,
  extensions,
})

it('writes the headers in the formats of HEADERS.md', () => {
  const operation = deprecated({
    'x-deprecated-at': '2026-01-01T00:00:00Z',
    'x-sunset': '2030-12-05T00:00:00Z',
    'x-successor': successor?.operationId,
  })
  expect(deprecationHeaders(operation, specOperations, links)).toEqual({
    deprecation: '@1767225600',
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    link: `</docs#operation/${first.operationId}>; rel="deprecation"; type="text/html", </docs#section/Deprecation-policy>; rel="sunset"; type="text/html", </v1${successor?.path}>; rel="successor-version"`,
  })
})

it('gives each deprecated operation of the spec its own dates, and current ones nothing', () => {
  for (const operation of specOperations) {
    const headers = deprecationHeaders(operation, specOperations, links)
    if (!operation.deprecated) {
      expect(headers, operation.operationId).toBeUndefined()
      continue
    }
    const at = Date.parse(String(operation.extensions['x-deprecated-at'])) / 1000
    const sunset = new Date(String(operation.extensions['x-sunset'])).toUTCString()
    expect(headers, operation.operationId).toMatchObject({ deprecation: `@${at}`, sunset })
    expect(headers?.link).toContain(`#operation/${operation.operationId}>; rel="deprecation"`)
  }
})

it('refuses a deprecated operation whose dates are missing or out of order', () => {
  expect(() =>
    deprecationHeaders(deprecated({ 'x-sunset': '2030-12-05T00:00:00Z' }), specOperations, links),
  ).toThrow('x-deprecated-at')
  expect(() =>
    deprecationHeaders(
      deprecated({ 'x-deprecated-at': '2031-01-01T00:00:00Z', 'x-sunset': '2030-12-05T00:00:00Z' }),
      specOperations,
      links,
    ),
  ).toThrow('earlier')
  expect(() =>
    deprecationHeaders(
      deprecated({
        'x-deprecated-at': '2026-01-01T00:00:00Z',
        'x-sunset': '2030-12-05T00:00:00Z',
        'x-successor': 'nope',
      }),
      specOperations,
      links,
    ),
  ).toThrow('nope')
})
