/**
 * Outside /v1, a routed path (health, readiness, docs) with another method is 405 with Allow;
 * anywhere, a method no route serves is answered by method and path alone, whatever its body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  startWithKey,
  type TestServer,
} from '../helpers.js'
import { allowed, probedMethods, specPaths } from '../spec-paths.js'
import { rawRequest } from './raw.js'

let server: TestServer
let auth: { authorization: string }
beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
})
afterAll(async () => server.close())

it.each(['/healthz', '/readyz', '/docs', '/docs/', '/docs/assets/app.js'])(
  'another method on %s is 405 method_not_allowed with Allow: GET, HEAD',
  async (path) => {
    for (const method of probedMethods.filter((m) => m !== 'GET')) {
      const reply = await call(`${server.url}${path}`, { method })
      expectSpecResponse(reply)
      expectErrorBody(reply, 'method_not_allowed')
      expect(allowed(reply.headers.get('allow')), `${method} ${path}`).toEqual(['GET', 'HEAD'])
      expect(errorOf(reply).message).toContain(`method ${method} `)
    }
  },
)

it('a path routed nowhere is still 404, whatever the method', async () => {
  for (const method of probedMethods) {
    const reply = await call(`${server.url}/healthz/more`, { method })
    expectErrorBody(reply, 'not_found')
  }
})

describe('methods Fastify reads a body for, sent over a raw socket', () => {
  /** QUERY (RFC 10008) and WebDAV's, which Node parses but no route here serves. */
  const methods = ['QUERY', 'PROPFIND', 'SEARCH']
  const bodies: Record<string, string[]> = {
    'no body, no Content-Type': [],
    'a body without Content-Type': ['content-length: 2', '', '{}'],
    'malformed JSON': ['content-type: application/json', 'content-length: 1', '', '{'],
    'a body over the limit': [
      'content-type: application/json',
      'content-length: 70000',
      '',
      ' '.repeat(70_000),
    ],
    'another media type': ['content-type: text/plain', 'content-length: 2', '', 'hi'],
  }
  const send = (method: string, path: string, lines: string[]) =>
    rawRequest(
      server.url,
      [
        `${method} ${path} HTTP/1.1`,
        'host: petstore.test',
        `authorization: ${auth.authorization}`,
        'connection: close',
        ...(lines.length === 0 ? ['', ''] : lines),
      ].join('\r\n'),
    )

  const paths = [
    ...specPaths().map(({ example, allow }) => ({ path: `/v1${example}`, allow })),
    { path: '/healthz', allow: ['GET', 'HEAD'] },
  ]
  for (const [what, lines] of Object.entries(bodies)) {
    it(`with ${what}: 405 method_not_allowed with Allow on a known path, 404 elsewhere`, async () => {
      for (const method of methods) {
        for (const { path, allow } of paths) {
          const reply = await send(method, path, lines)
          expectSpecResponse(reply)
          expectErrorBody(reply, 'method_not_allowed')
          expect(allowed(reply.headers.get('allow')), `${method} ${path}`).toEqual(allow)
          // Under /v1 it was counted, like every request.
          if (path.startsWith('/v1/')) expect(reply.headers.get('ratelimit')).not.toBeNull()
        }
        const unknown = await send(method, '/v1/nowhere', lines)
        expectSpecResponse(unknown)
        expectErrorBody(unknown, 'not_found')
      }
    })
  }
})
