/**
 * The server span of every request Fastify routes, following the HTTP server conventions: it
 * continues the caller's trace when the request carries a W3C `traceparent` (and `tracestate`),
 * is named `{method} {http.route}` with the route as the spec writes it (base path included,
 * e.g. `GET /v1/pets/{petId}`; a request no route matched is named by its method alone), kind
 * SERVER, and carries the request's method, route, path, scheme, server address and port and
 * its answer's status, with an error status for a 5xx. Its ids are put on the request for the
 * completion log line (http/completion-log.ts).
 *
 * The request's context (its span) is entered for the hooks that follow and again for the
 * handler, which Fastify calls from the body's events, outside it: so a store call finds its
 * request's span (store.ts). An unsampled request's context is never entered (it would make no
 * child span): on Node 20 the first entered context turns on async hooks for every promise of
 * the process, which an `always_off` or a low-ratio sampler need not pay for. Only the
 * sampler's inputs are computed before it decides; an unsampled request costs its ids.
 *
 * A caller whose sampling flag is not followed (`PETSTORE_TRACE_SAMPLING_FROM=keys`, and no known
 * key) gets a trace of the server's own, sampled as a root is, with a link to the caller's span:
 * as the W3C's security considerations advise for a `traceparent` that is not trusted.
 * @see https://www.w3.org/TR/trace-context/#security-considerations
 * @see https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-server
 * @see https://www.w3.org/TR/trace-context/
 */
import {
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions'
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify'
import type { TraceIds } from '../http/completion-log.js'
import { specPathOf } from '../spec/operations.js'

class RequestTrace implements TraceIds {
  readonly traceId: string
  readonly spanId: string
  readonly traceFlags: number
  /** False for an unsampled request: its context is never entered (see below). */
  readonly recording: boolean
  /** The request's context, its span active; made only for a recorded request. */
  readonly context: Context
  ended = false
  constructor(
    readonly span: Span,
    parent: Context,
  ) {
    this.recording = span.isRecording()
    this.context = this.recording ? trace.setSpan(parent, span) : parent
    const ids = span.spanContext()
    this.traceId = ids.traceId
    this.spanId = ids.spanId
    this.traceFlags = ids.traceFlags
  }
}

export function instrumentHttp(
  app: FastifyInstance,
  tracer: Tracer,
  followsSampling: (request: FastifyRequest) => boolean = () => true,
): void {
  const routes = new Map<string, string>()
  app.decorateRequest('traceIds', null)
  app.addHook('onRoute', (route) => {
    routes.set(route.url, specPathOf(route.url))
    const handler = route.handler as (...args: unknown[]) => unknown
    route.handler = function handleInContext(this: FastifyInstance, request, reply) {
      const active = request.traceIds as RequestTrace | null
      if (active === null || !active.recording) return handler.call(this, request, reply)
      return context.with(active.context, handler, this, request, reply)
    } as RouteHandlerMethod
  })

  const end = (request: FastifyRequest, status: number | undefined) => {
    const active = request.traceIds as RequestTrace | null
    if (active === null || active.ended) return
    active.ended = true
    const { span } = active
    if (status !== undefined && active.recording) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status)
      if (status >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR })
        span.setAttribute(ATTR_ERROR_TYPE, String(status))
      }
    }
    span.end()
  }
  app.addHook('onRequest', (request, _reply, done) => {
    // Most requests carry no trace context: the propagator need not look.
    let parent = ROOT_CONTEXT
    let links: Link[] | undefined
    if (request.headers.traceparent !== undefined) {
      const remote = propagation.extract(ROOT_CONTEXT, request.headers)
      const caller = trace.getSpanContext(remote)
      if (caller === undefined || followsSampling(request)) parent = remote
      else links = [{ context: caller }]
    }
    const url = request.routeOptions.url
    const route = url === undefined ? undefined : (routes.get(url) ?? specPathOf(url))
    const attributes: Record<string, string> = { [ATTR_HTTP_REQUEST_METHOD]: request.method }
    if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route
    const span = tracer.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes, ...(links && { links }) },
      parent,
    )
    const active = new RequestTrace(span, parent)
    request.traceIds = active
    if (!active.recording) {
      done()
      return
    }
    recordRequest(span, request)
    // A client that goes away first gets no onResponse. Listened to here rather than with an
    // onRequestAbort hook, which would add a listener to every request, unsampled ones too.
    request.raw.once('close', () => {
      if (!request.raw.aborted || active.ended) return
      span.setAttribute(ATTR_ERROR_TYPE, 'aborted')
      end(request, undefined)
    })
    context.with(active.context, done)
  })

  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode)
    done()
  })
}

function recordRequest(span: Span, request: FastifyRequest): void {
  const { url } = request
  const query = url.indexOf('?')
  span.setAttribute(ATTR_URL_PATH, query === -1 ? url : url.slice(0, query))
  span.setAttribute(ATTR_URL_SCHEME, request.protocol)
  // Host may be absent (HTTP/1.0); the attributes are then left out, not guessed.
  if (request.hostname) span.setAttribute(ATTR_SERVER_ADDRESS, request.hostname)
  const { port } = request
  if (port !== null) span.setAttribute(ATTR_SERVER_PORT, port)
  span.setAttribute(ATTR_CLIENT_ADDRESS, request.ip)
}
