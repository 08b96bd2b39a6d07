/** Outside /v1, a routed path (health, readiness, docs) with another method is 405 with Allow. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  call,
  errorOf,
  expectErrorBody,
  expectSpecResponse,
  startTestServer,
  type TestServer,
} from '../helpers.js'
import { allowed, probedMethods } from '../spec-paths.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
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
