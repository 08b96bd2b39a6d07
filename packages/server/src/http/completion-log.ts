/**
 * One `request completed` line per answer, with its id, status and duration: for every request
 * Fastify answers (here), and for those refused below it (edge.ts), so that the `X-Request-Id`
 * of any answer can be found in the logs.
 *
 * The line is the one pino would write for `log.info(completion, 'request completed')`, built
 * from the logger's own level label, time and bindings and written to its stream: every request
 * writes one, and pino's generic path (key walk, serializers, redaction) serves any shape of
 * fields, where the shape of these is fixed here.
 *
 * The query string keeps only the parameters the spec declares (`loggedUrl`): a key a client
 * wrongly puts in the query string never reaches the log.
 *
 * With tracing on (tracing/), the line also names the request's trace: `trace_id`, `span_id`
 * (the server span) and `trace_flags` (`01` when sampled), the fields OpenTelemetry's log
 * correlation writes, so that a line leads to its trace and a trace to its line.
 * @see https://opentelemetry.io/docs/specs/otel/compatibility/logging_trace_context/
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { symbols } from 'pino'
import { jsonString } from '../json-write.js'
import { specOperations } from '../spec/operations.js'

/** The trace a request is part of (its server span), set by tracing/http.ts when tracing is on. */
export interface TraceIds {
  readonly traceId: string
  readonly spanId: string
  /** W3C trace flags: bit 0 set when sampled. */
  readonly traceFlags: number
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Null when tracing is off or did not see the request. */
    traceIds?: TraceIds | null
  }
}

export interface Completion {
  requestId: string
  method: string
  url: string
  statusCode: number
  ms: number
  trace?: TraceIds | null
}

/** The query parameters some operation of the spec declares: only theirs are logged as sent. */
const declaredQueryNames: ReadonlySet<string> = new Set(
  specOperations.flatMap((operation) =>
    operation.parameters.filter((parameter) => parameter.in === 'query').map((p) => p.name),
  ),
)

/**
 * `url` as logged: each query parameter the spec does not declare (name and value, which may be
 * a secret) replaced by `[redacted]`.
 *
 * @example
 * ```ts
 * loggedUrl('/v1/pets?limit=5&api_key=psk_live_0123') // '/v1/pets?limit=5&[redacted]'
 * ```
 */
export function loggedUrl(url: string): string {
  const mark = url.indexOf('?')
  if (mark < 0) return url
  const pairs = url.slice(mark + 1).split('&')
  let redacted = false
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index] as string
    const equals = pair.indexOf('=')
    const name = equals < 0 ? pair : pair.slice(0, equals)
    if (pair !== '' && !declaredQueryNames.has(name)) {
      pairs[index] = '[redacted]'
      redacted = true
    }
  }
  return redacted ? `${url.slice(0, mark + 1)}${pairs.join('&')}` : url
}

/** The parts of a pino logger the line is built from (pino's own symbols). */
interface PinoInternals {
  [symbols.lsCacheSym]?: Readonly<Record<number, string>>
  [symbols.timeSym]?: () => string
  [symbols.chindingsSym]?: string
  [symbols.streamSym]?: { write(line: string): unknown }
  levelVal?: number
}

const info = 30

export function logCompletion(log: FastifyBaseLogger, completion: Completion): void {
  const pino = log as FastifyBaseLogger & PinoInternals
  const stream = pino[symbols.streamSym]
  const levelLabel = pino[symbols.lsCacheSym]?.[info]
  const time = pino[symbols.timeSym]
  // Not a pino logger (logging off), or one set above info: nothing is written.
  if (stream === undefined || levelLabel === undefined || time === undefined) return
  if ((pino.levelVal ?? Number.POSITIVE_INFINITY) > info) return
  const { requestId, method, url, statusCode, ms, trace } = completion
  let fields =
    `,"requestId":${jsonString(requestId)},"method":${jsonString(method)}` +
    `,"url":${jsonString(loggedUrl(url))},"statusCode":${statusCode},"ms":${ms}`
  // The ids are lower-case hex, as W3C trace-context writes them: nothing to escape.
  if (trace) {
    fields += `,"trace_id":"${trace.traceId}","span_id":"${trace.spanId}","trace_flags":"${trace.traceFlags.toString(16).padStart(2, '0')}"`
  }
  const bindings = pino[symbols.chindingsSym] ?? ''
  stream.write(`${levelLabel}${time()}${bindings}${fields},"msg":"request completed"}\n`)
}

/** The completion of an answer Fastify wrote. */
export function completionOf(request: FastifyRequest, reply: FastifyReply): Completion {
  return {
    requestId: request.id,
    method: request.method,
    url: request.url,
    statusCode: reply.statusCode,
    ms: Math.round(reply.elapsedTime),
    trace: request.traceIds,
  }
}

export function logCompletions(app: FastifyInstance): void {
  // A callback hook, not an async one: every request passes here, and it needs no promise.
  app.addHook('onResponse', (request, reply, done) => {
    // On the root logger: a request that logs nothing else never builds its child logger.
    logCompletion(app.log, completionOf(request, reply))
    done()
  })
}
