/**
 * `X-Request-Id` as the spec states it: the request parameter accepts any value (so a fuzzer's
 * "schema-violating" value is one the server really refuses), the response header is strict, and
 * a sent value is echoed exactly when the response header's schema allows it, else replaced.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAjv } from '../../src/spec/ajv.js'
import { resolvePointer, specDocument } from '../../src/spec/document.js'
import { call, expectSpecResponse, startWithKey, type TestServer } from '../helpers.js'

let server: TestServer
let auth: { authorization: string }
beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
})
afterAll(async () => server.close())

const ajv = createAjv()
const schemaAt = (pointer: string) =>
  ajv.compile(resolvePointer(specDocument, `${pointer}/schema`) as object)
const parameterAccepts = schemaAt('#/components/parameters/RequestId')
const responseAllows = schemaAt('#/components/headers/X-Request-Id')

/** Header values a client can send: visible ASCII and spaces inside, sane or not, any length. */
const sent = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/),
  fc.string({ unit: fc.constantFrom(...'aZ9._:-/ =+"!~#%'), maxLength: 300 }).map((s) => s.trim()),
  fc.constantFrom('', 'x'.repeat(129), 'a b', 'é'),
)

it('accepts any value the parameter schema allows, echoing exactly those the response header allows', async () => {
  await fc.assert(
    fc.asyncProperty(sent, async (value) => {
      const reply = await call(`${server.api}/pets?limit=1`, {
        headers: { ...auth, 'x-request-id': value },
      })
      expect(parameterAccepts(value)).toBe(true)
      expect(reply.status).toBe(200)
      expectSpecResponse(reply, 'listPets')
      const echoed = reply.headers.get('x-request-id')
      if (responseAllows(value)) expect(echoed).toBe(value)
      else expect(echoed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    }),
    { numRuns: 150 },
  )
})
