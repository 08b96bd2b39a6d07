/**
 * The spec's request examples are sendable as they are, the way example-driven tools
 * (Schemathesis' examples phase, Prism's) send them: every parameter example at once, with each
 * body example in turn, and again. A real server must take each request as valid: a 2XX, or a
 * 404 for an example id that names no pet on this server. An example that can never be valid
 * (a sealed cursor) or that collides with itself across requests (one idempotency key for two
 * bodies) has no place in the spec.
 */
import { operationsOf, resolveRef } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { call, startWithKey, type TestServer } from '../helpers.js'

let server: TestServer
let auth: { authorization: string }
beforeAll(async () => {
  ;({ server, auth } = await startWithKey())
})
afterAll(async () => server.close())

type Node = Record<string, unknown>

interface Parameter {
  name: string
  in: string
  example?: unknown
  examples?: Record<string, { value?: unknown } | { $ref: string }>
}

/** The example values of a parameter or media type: `example`, then every `examples` value. */
function examplesOf(node: Pick<Parameter, 'example' | 'examples'>): unknown[] {
  if (node.example !== undefined) return [node.example]
  return Object.values(node.examples ?? {}).map(
    (example) => resolveRef<{ value?: unknown }>(openapiDocument, example).value,
  )
}

/** One request per body example (one without a body when there is none), every parameter set. */
function exampleRequests(
  path: string,
  method: string,
  operation: Node,
  parameters: readonly Parameter[],
) {
  let url = path
  const query = new URLSearchParams()
  const headers: Record<string, string> = { ...auth }
  for (const parameter of parameters) {
    const [example] = examplesOf(parameter)
    if (example === undefined) continue
    const value = String(example)
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value))
    else if (parameter.in === 'query') query.set(parameter.name, value)
    else if (parameter.in === 'header') headers[parameter.name] = value
  }
  const target = `${server.api}${url}${query.size === 0 ? '' : `?${query}`}`
  const body = resolveRef(openapiDocument, operation.requestBody as Node | undefined)
  // Each body example sent with the media type it is declared under.
  const media = Object.entries((body?.content ?? {}) as Record<string, Node>)
  const bodies: [string | undefined, unknown][] =
    media.length === 0
      ? [[undefined, undefined]]
      : media.flatMap(([type, content]) =>
          examplesOf(content).map((value): [string, unknown] => [type, value]),
        )
  return bodies.map(([type, value]) => ({
    url: target,
    what: `${method.toUpperCase()} ${url}${value === undefined ? '' : ` ${JSON.stringify(value)}`}`,
    init: {
      method: method.toUpperCase(),
      headers: type === undefined ? headers : { ...headers, 'content-type': type },
      ...(value === undefined ? {} : { body: JSON.stringify(value) }),
    },
  }))
}

it('every request built from the examples is valid, sent once and again', async () => {
  const requests = operationsOf<Node, Parameter>(openapiDocument).flatMap(
    ({ path, method, operation, parameters }) =>
      exampleRequests(path, method, operation, parameters),
  )
  expect(requests.length).toBeGreaterThan(0)
  for (const round of [1, 2]) {
    for (const { url, what, init } of requests) {
      const reply = await call(url, init)
      const { status } = reply
      expect(status < 300 || status === 404, `round ${round}: ${what} -> ${reply.text}`).toBe(true)
    }
  }
})
