/**
 * CORS for /v1. Keys are bearer tokens, never cookies, so any allowed origin gets the same
 * answer and credentials are never allowed. Header values are computed once.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
import { openapiDocument } from '@petstore/types/spec'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { HeaderSink } from '../rate-limit/headers.js'

/**
 * The value of a CORS header the spec fixes (its schema's single `enum` value), so that the
 * lists of headers are written once, in the spec.
 */
function fixedBySpec(
  name: 'Access-Control-Expose-Headers' | 'Access-Control-Allow-Headers',
): string {
  const values: readonly string[] = openapiDocument.components.headers[name].schema.enum
  const [value] = values
  if (value === undefined || values.length !== 1) {
    throw new Error(
      `spec/openapi.yaml: components.headers.${name} must have exactly one enum value`,
    )
  }
  return value
}

/** The response headers a browser may read. */
const exposed = fixedBySpec('Access-Control-Expose-Headers')

/** The request headers a browser may send. */
const requestHeaders = fixedBySpec('Access-Control-Allow-Headers')

export interface CorsPolicy {
  /** Adds the CORS response headers when the request's Origin is allowed. */
  apply(request: Pick<FastifyRequest, 'headers'>, reply: HeaderSink): void
  /** Adds the preflight headers for a path that supports `methods`. */
  preflight(request: FastifyRequest, reply: FastifyReply, methods: string): void
}

/** `origins` is `*` or the exact origins allowed (e.g. `https://app.example`). */
export function createCorsPolicy(origins: '*' | readonly string[]): CorsPolicy {
  const allowed = origins === '*' ? undefined : new Set(origins)
  const allowOrigin = (origin: string | undefined): string | undefined => {
    if (origin === undefined) return undefined
    if (allowed === undefined) return '*'
    return allowed.has(origin) ? origin : undefined
  }
  return {
    apply(request, reply) {
      if (allowed !== undefined) reply.header('vary', 'Origin')
      const origin = allowOrigin(request.headers.origin)
      if (origin === undefined) return
      reply.header('access-control-allow-origin', origin)
      reply.header('access-control-expose-headers', exposed)
    },
    preflight(request, reply, methods) {
      if (allowOrigin(request.headers.origin) === undefined) return
      if (request.headers['access-control-request-method'] === undefined) return
      reply.header('access-control-allow-methods', methods)
      reply.header('access-control-allow-headers', requestHeaders)
      reply.header('access-control-max-age', '600')
    },
  }
}
