/**
 * Answers for requests refused below the routes, so that they keep the contract of every
 * answer: the Error body, `X-Request-Id`, `nosniff` and `no-store` and, under /v1, the
 * rate-limit headers, the request counted against its caller.
 *
 * - Fastify's router refuses a path with bad percent-encoding or a parameter longer than
 *   `maxParamLength` (`frameworkErrors`): `400 invalid_request` through the error handler.
 * - Node's HTTP parser refuses what it cannot parse (oversized headers `431`; a malformed
 *   chunked body, `Content-Length` with `Transfer-Encoding`, an unknown method `400`) and a
 *   request that does not arrive in time (`408`), before Fastify sees it (`clientError`).
 *   A request Fastify already holds (its body stalled) is answered through its reply, with the
 *   headers and count it already has. Otherwise a raw HTTP/1.1 answer is written on the socket:
 *   the parser gave up, so no header of the request can be trusted; it counts against the
 *   connection's peer address when its request line names a /v1 path, except behind a trusted
 *   proxy, whose address is shared by every client (the proxy's own parser is the guard there).
 * Either way the connection is then closed: its framing can no longer be trusted.
 */
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { answeredMethods } from '@petstore/types/openapi'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type ApiProblem, problem, toProblem } from '../errors.js'
import { type DeprecationLinks, deprecationHeaders } from '../spec/deprecation.js'
import type { OperationSpec } from '../spec/operations.js'
import { type Completion, completionOf, logCompletion } from './completion-log.js'
import { handleError } from './error-handler.js'
import { routePattern } from './methods.js'
import { ambiguousCredentials } from './request-head-checks.js'
import {
  captureRequestHeads,
  headInPacket,
  type RequestHead,
  type RequestHeads,
} from './request-heads.js'
import { type V1PipelineOptions, writeV1Headers } from './v1.js'

export interface EdgeOptions extends V1PipelineOptions {
  basePath: string
  /** The deprecation headers of the operation a refused request was meant for, if any. */
  deprecationOf: (method: string, url: string) => Readonly<Record<string, string>> | undefined
  /** True when `X-Forwarded-For` is trusted: the peer address is then a proxy's. */
  behindProxy: boolean
  /** Told of each answer given here, below the routes (metrics). */
  answered?: ((completion: Completion) => void) | undefined
}

const under = (basePath: string, url: string) =>
  url === basePath || url.startsWith(`${basePath}/`) || url.startsWith(`${basePath}?`)

/**
 * Fastify's `frameworkErrors`: the router refused the path before any hook ran, so the /v1
 * steps that apply to a refusal (headers, counting) run here.
 */
export function createFrameworkErrorHandler(edge: EdgeOptions) {
  return async function frameworkErrors(
    error: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    reply.header('x-request-id', request.id)
    // No route, so no onResponse hook: its completion line is written here.
    reply.raw.once('finish', () => {
      const completion = completionOf(request, reply)
      logCompletion(request.server.log, completion)
      edge.answered?.(completion)
    })
    await refuseBeforeV1Hooks(edge, error, request, reply)
  }
}

/**
 * Answers `error` for a request the /v1 hooks have not seen, after their steps that apply to a
 * refusal: the /v1 headers and the count, against the key unless two credentials were sent
 * (then against the client's IP: neither is trusted).
 */
export async function refuseBeforeV1Hooks(
  edge: EdgeOptions,
  error: Error,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  try {
    if (under(edge.basePath, request.url)) {
      writeV1Headers(request, reply, edge.cors)
      const deprecation = edge.deprecationOf(request.method, request.url)
      if (deprecation !== undefined) reply.headers(deprecation)
      const caller = ambiguousCredentials(request)
        ? { kind: 'ip' as const, ip: request.ip }
        : await edge.identifyCaller(request)
      await edge.rateLimit(request, reply, caller)
    }
    throw error
  } catch (thrown) {
    handleError(thrown as Error, request, reply)
  }
}

/**
 * Finds the deprecated operation a URL the router refused would have reached, by the
 * operation's path template (its parameters match any segment).
 */
export function createDeprecationLookup(
  operations: readonly OperationSpec[],
  links: DeprecationLinks,
): EdgeOptions['deprecationOf'] {
  const deprecated = operations.flatMap((operation) => {
    const headers = deprecationHeaders(operation, operations, links)
    if (headers === undefined) return []
    const pattern = routePattern(`${links.basePath}${operation.routePath}`)
    return [{ methods: answeredMethods(operation.method), pattern, headers }]
  })
  return (method, url) => {
    const path = url.split('?', 1)[0] ?? ''
    return deprecated.find((entry) => entry.methods.includes(method) && entry.pattern.test(path))
      ?.headers
  }
}

/** The refusal Node's parser error stands for. */
function clientProblem(error: Error): ApiProblem {
  const { code } = error as NodeJS.ErrnoException
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problem('requestTimeout')
  if (code === 'HPE_HEADER_OVERFLOW') return problem('headersTooLarge')
  return problem('malformedRequest')
}

/** A reply being written to: where the headers of a raw answer are collected. */
class HeaderBag {
  readonly fields: Record<string, string> = {}
  header(name: string, value: string): this {
    this.fields[name.toLowerCase()] = value
    return this
  }
  headers(values: Readonly<Record<string, string>> = {}): this {
    for (const [name, value] of Object.entries(values)) this.header(name, value)
    return this
  }
}

/**
 * The requests Fastify holds, per socket: a parse error or a timeout names only the socket.
 */
export interface HeldRequests {
  /**
   * The reply of the request Fastify last received on each open socket: what a refusal of the
   * socket answers through, and the answers still to write when the app closes (shutdown.ts).
   */
  readonly replies: Map<Socket, FastifyReply>
  /** The heads of first requests not handed over yet, for raw answers. */
  heads: RequestHeads
}

// On the reply, not in weak collections keyed by it: every request passes here, and a weak
// entry per request costs the garbage collector more than a field.
declare module 'fastify' {
  interface FastifyReply {
    /** A refusal found while the request was in its hooks: answered once they are done. */
    heldRefusal: ApiProblem | null
    /** True once the request has passed its hooks and is reading its body. */
    readingBody: boolean
  }
}

/** `heads` is set by `trackHeldRequests`, once the server exists. */
export function createHeldRequests(): HeldRequests {
  return {
    replies: new Map(),
    heads: { of: () => undefined, handedOver: () => {} },
  }
}

/**
 * Keeps `held` up to date: registers its `preParsing` hook and returns the step the app's first
 * `onRequest` hook runs (pipeline.ts), synchronously: Node's parser can refuse the body of a
 * request in the same turn that it hands the request to Fastify.
 */
export function trackHeldRequests(
  app: FastifyInstance,
  held: HeldRequests,
): (request: FastifyRequest, reply: FastifyReply) => void {
  held.heads = captureRequestHeads(app.server)
  app.decorateReply('heldRefusal', null)
  app.decorateReply('readingBody', false)
  app.addHook('preParsing', (_request, reply, payload, done) => {
    if (reply.heldRefusal !== null) {
      done(reply.heldRefusal)
      return
    }
    reply.readingBody = true
    done(null, payload)
  })
  return function holdRequest(request, reply) {
    const { socket } = request.raw
    if (!held.replies.has(socket)) {
      held.heads.handedOver(socket)
      socket.once('close', () => held.replies.delete(socket))
    }
    held.replies.set(socket, reply)
  }
}

/** Fastify's `clientErrorHandler`. */
export function createClientErrorHandler(edge: EdgeOptions, held: HeldRequests) {
  return function clientError(this: FastifyInstance, error: Error, socket: Socket): void {
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return
    const refusal = clientProblem(error)
    const reply = held.replies.get(socket)
    if (reply !== undefined && !reply.sent) {
      if (reply.raw.headersSent || !socket.writable) {
        socket.destroy()
        return
      }
      reply.header('connection', 'close')
      // A request still in its hooks is answered after them, so that it is counted first.
      if (reply.readingBody) handleError(refusal, reply.request, reply)
      else reply.heldRefusal = refusal
      return
    }
    if (!socket.writable) {
      socket.destroy()
      return
    }
    const { rawPacket } = error as { rawPacket?: Buffer }
    const head = held.heads.of(socket) ?? headInPacket(rawPacket, Date.now())
    void answerRaw(this, edge, refusal, head, socket)
  }
}

/**
 * The answer to a request Node's parser refused before handing it over, written on the socket,
 * with the headers of an answer to its method and path (when its request line arrived): under
 * /v1 `nosniff`, `no-store`, the rate-limit headers and a deprecated operation's headers.
 */
async function answerRaw(
  app: FastifyInstance,
  edge: EdgeOptions,
  refusal: ApiProblem,
  head: RequestHead | undefined,
  socket: Socket,
): Promise<void> {
  const headers = new HeaderBag()
  let answer = refusal
  if (head !== undefined && under(edge.basePath, head.url)) {
    writeV1Headers({ headers: {} }, headers, edge.cors)
    headers.headers(edge.deprecationOf(head.method, head.url))
    const ip = socket.remoteAddress
    if (!edge.behindProxy && ip !== undefined) {
      try {
        await edge.rateLimit(app, headers, { kind: 'ip', ip })
      } catch (limited) {
        answer = toProblem(limited)
      }
    }
  }
  if (socket.destroyed) return
  const text = JSON.stringify(answer.body())
  const requestId = randomUUID()
  const fields: Record<string, string> = {
    ...headers.fields,
    ...answer.headers,
    'x-request-id': requestId,
    date: new Date().toUTCString(),
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
  }
  const lines = Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${lines}\r\n${text}`)
  app.lingering.close(socket)
  const completion = {
    requestId,
    method: head?.method ?? '',
    url: head?.url ?? '',
    statusCode: answer.status,
    ms: head === undefined ? 0 : Date.now() - head.startedAt,
  }
  logCompletion(app.log, completion)
  edge.answered?.(completion)
}
