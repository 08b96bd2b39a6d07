/**
 * Each operation reads only the request bodies it declares: one JSON parser serves every JSON
 * media type (json-body.ts), and this gate, a route's first body step, answers `415` before the
 * body is read when a request with a body sends another type (or none), naming those the
 * operation takes. So `POST /pets` refuses `application/merge-patch+json` that `PATCH
 * /pets/{petId}` takes. An operation that declares no body answers `400` to a request that sends
 * one, unread, rather than drop what the client meant to say.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5.16 (415 Unsupported Media Type)
 */
import { mediaTypeOf } from '@petstore/types/openapi'
import type { FastifyRequest, preParsingHookHandler } from 'fastify'
import { problem } from '../errors.js'
import type { RouteConfig } from './operations.js'

/** Whether the request carries a body (RFC 9112 §6.3: chunked, or a length above zero). */
function hasBody(request: FastifyRequest): boolean {
  const { headers } = request
  const length = headers['content-length']
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** The gate of an operation whose request body may be any of `types`. */
export function acceptMediaTypes(types: readonly string[]): preParsingHookHandler {
  const accepted = new Set(types)
  const named = types.join(' or ')
  return (request, _reply, payload, done) => {
    // No Content-Type is the empty type, which no operation takes.
    const type = mediaTypeOf(request.headers['content-type'] ?? '')
    if (!accepted.has(type) && hasBody(request)) {
      done(problem('unsupportedMediaType', { types: named }))
      return
    }
    done(null, payload)
  }
}

/**
 * Refuses, unread, the body of a request to a route that declares none (`config.noBody` names
 * it: an operationId, or method and path). Run by the /v1 `onRequest` hook once the caller is
 * admitted, so a route without a body adds no step of its own to a request.
 */
export function refuseUndeclaredBody(request: FastifyRequest, config: RouteConfig): void {
  if (config.noBody !== undefined && hasBody(request)) {
    throw problem('unexpectedBody', { label: config.noBody })
  }
}
