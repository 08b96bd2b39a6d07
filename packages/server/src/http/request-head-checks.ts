/**
 * Refusals of what Node's HTTP server would otherwise decide alone, silently or with a bare
 * answer (no Error body, no request id, not counted): an HTTP/1.1 request without `Host` (Node's
 * bare 400), an `Expect` other than `100-continue` (Node's bare 417; a 400 here, which RFC 9110
 * allows, since a new error code would break clients that handle every documented one), and a header that must
 * occur once sent several times (Node keeps the first `Authorization`, `Content-Type` or `Host`
 * and drops the rest, so the request would be served with a value picked for it). Node hands
 * these requests to the app instead (app.ts: `requireHostHeader: false`, `checkExpectation`,
 * `connect`), and they are refused here like any refusal below the routes (edge.ts).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-3.2 Host: 400 if missing or repeated
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.1.1 Expect: 417
 */
import { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { type ApiProblem, problem } from '../errors.js'

/**
 * Headers a request may carry once (a second one would be dropped or joined silently), by
 * lower-case name: the name errors give, and the bit that marks it seen.
 */
const singletons = new Map(
  ['Host', 'Authorization', 'Content-Type', 'Idempotency-Key'].map((name, index) => [
    name.toLowerCase(),
    { name, bit: 1 << index },
  ]),
)
/** A name of another length is passed over without its lower-cased copy and lookup. */
const singletonLengths = new Set([...singletons.keys()].map((name) => name.length))

/** What is wrong with the request's head, if anything. */
export function headProblem(request: FastifyRequest): ApiProblem | undefined {
  const { raw } = request
  const repeated = repeatedSingleton(raw.rawHeaders)
  if (repeated !== undefined) return problem('headerRepeated', { name: repeated })
  if (raw.httpVersion === '1.1' && raw.headers.host === undefined) return problem('hostMissing')
  const expect = raw.headers.expect
  if (expect !== undefined && !/^100-continue$/i.test(expect.trim())) {
    return problem('unmetExpectation')
  }
  return undefined
}

/** True when the request's Authorization cannot be trusted to name one key. */
export function ambiguousCredentials(request: FastifyRequest): boolean {
  return repeatedSingleton(request.raw.rawHeaders) === 'Authorization'
}

function repeatedSingleton(rawHeaders: readonly string[]): string | undefined {
  let seen = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string
    if (!singletonLengths.has(name.length)) continue
    const singleton = singletons.get(name.toLowerCase())
    if (singleton === undefined) continue
    if ((seen & singleton.bit) !== 0) return singleton.name
    seen |= singleton.bit
  }
  return undefined
}

/**
 * Lets Node hand over what it would answer alone: the checks then run in the app's first
 * `onRequest` hook (pipeline.ts), through `headProblem`.
 */
export function handOverHeadChecks(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request, response) => {
    app.server.emit('request', request, response)
  })
  // CONNECT: Node's parser lets go of the socket; without this, Node closes it without a word.
  // The request is routed like any other: no route has the method, so it is 405 with Allow on
  // a known path, else 404, and the connection closes after the answer.
  app.server.on('connect', (request, duplex) => {
    // A net.Socket for a TCP server (the type says Duplex for custom servers).
    const socket = duplex as Socket
    const response = new ServerResponse(request)
    response.shouldKeepAlive = false
    response.assignSocket(socket)
    response.once('finish', () => {
      response.detachSocket(socket)
      app.lingering.close(socket)
    })
    app.server.emit('request', request, response)
  })
}
