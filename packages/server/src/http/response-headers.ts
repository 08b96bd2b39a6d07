/**
 * The one owner of the rule "which part of the service writes which response header": every
 * header the spec declares (by its `components/headers` entry) is written by exactly one writer,
 * named here. A header the spec adds is a compile error here until it has one, and handlers
 * return exactly the headers whose writer is `handler` (contract.ts types their results from this
 * table). What the table promises is then checked on every answer (`checkRequiredHeaders`): a
 * response missing a header the spec requires for its operation and status is logged, or, where
 * the configuration says so (tests), answered 500 instead of sent without it.
 */
import type { components } from '@petstore/types'
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'
import { problem } from '../errors.js'
import type { OperationSpec } from '../spec/operations.js'

/** Where each writer lives. */
export const writers = {
  /** http/pipeline.ts: on every answer. */
  pipeline: 'the request pipeline (http/pipeline.ts)',
  /** http/v1.ts: on every /v1 answer. */
  v1: 'the /v1 pipeline (http/v1.ts)',
  /** http/cors.ts: for a browser's allowed origin, and its preflights. */
  cors: 'CORS (http/cors.ts)',
  /** rate-limit/headers.ts: on every counted answer. */
  rateLimit: 'the rate-limit hook (rate-limit/headers.ts)',
  /** spec/deprecation.ts, through http/v1.ts: on every answer of a deprecated operation. */
  deprecation: 'the deprecation headers (spec/deprecation.ts)',
  /** errors.ts: with the refusal that needs it (`Retry-After`, `WWW-Authenticate`, `Allow`). */
  refusal: 'the refusal (errors.ts ApiProblem headers)',
  /** The operation's handler, in its result (contract.ts). */
  handler: "the operation's handler (routes/)",
} as const

export type Writer = keyof typeof writers

/** The writer of each header component of the spec. */
export const headerWriters = {
  'X-Request-Id': 'pipeline',
  'X-Content-Type-Options': 'v1',
  'Cache-Control': 'v1',
  'Access-Control-Allow-Origin': 'cors',
  'Access-Control-Expose-Headers': 'cors',
  Vary: 'cors',
  'Access-Control-Allow-Methods': 'cors',
  'Access-Control-Allow-Headers': 'cors',
  'Access-Control-Max-Age': 'cors',
  'X-RateLimit-Limit': 'rateLimit',
  'X-RateLimit-Remaining': 'rateLimit',
  'X-RateLimit-Reset': 'rateLimit',
  'RateLimit-Policy': 'rateLimit',
  RateLimit: 'rateLimit',
  'X-RateLimit-Limit-IfCounted': 'rateLimit',
  'X-RateLimit-Remaining-IfCounted': 'rateLimit',
  'X-RateLimit-Reset-IfCounted': 'rateLimit',
  'RateLimit-Policy-IfCounted': 'rateLimit',
  'RateLimit-IfCounted': 'rateLimit',
  Deprecation: 'deprecation',
  Sunset: 'deprecation',
  LinkDeprecation: 'deprecation',
  'Retry-After': 'refusal',
  'WWW-Authenticate': 'refusal',
  Allow: 'refusal',
  Location: 'handler',
  OrderLocation: 'handler',
  ETag: 'handler',
  LinkNext: 'handler',
  'Idempotent-Replayed': 'handler',
} as const satisfies Record<keyof components['headers'], Writer>

/** The writer of a header by its component; a header written inline is its handler's. */
export type WriterOf<Component> = Component extends keyof typeof headerWriters
  ? (typeof headerWriters)[Component]
  : 'handler'

/** What a response that lacks a required header does (the `PETSTORE_RESPONSE_CHECK` setting). */
export type ResponseCheck = 'log' | 'fail'

/**
 * The route hook that holds each answer of `operation` to the headers its status requires in
 * the spec. Only statuses the operation declares are checked; an undeclared one is logged.
 */
export function checkRequiredHeaders(
  operation: OperationSpec,
  mode: ResponseCheck,
): onSendHookHandler {
  const required = new Map(
    Object.entries(operation.responses).map(([status, response]) => [
      Number(status),
      Object.entries(response.headers)
        .filter(([, header]) => header.required)
        .map(([name]) => name.toLowerCase()),
    ]),
  )
  return (request, reply, payload, done) => {
    const names = required.get(reply.statusCode)
    if (names?.every((name) => reply.hasHeader(name))) {
      done(null, payload)
      return
    }
    report(request, reply, operation, names?.filter((name) => !reply.hasHeader(name)) ?? [])
    if (mode === 'log' || reply.statusCode >= 500) {
      done(null, payload)
      return
    }
    const failed = problem('internalError')
    reply.code(failed.status).type('application/json; charset=utf-8')
    done(null, JSON.stringify(failed.body()))
  }
}

function report(
  request: FastifyRequest,
  reply: FastifyReply,
  operation: OperationSpec,
  missing: readonly string[],
): void {
  const { operationId } = operation
  const status = reply.statusCode
  if (missing.length === 0) {
    request.log.error({ operationId, status }, 'the answer has a status the spec does not declare')
  } else {
    request.log.error(
      { operationId, status, missing },
      'the answer lacks a header the spec requires',
    )
  }
}
