/**
 * X-Request-Id: the client's own id when it matches the spec's pattern, else a generated UUID.
 * Fastify puts it on `request.id`, so every log line of the request carries it, and every
 * response, errors included, echoes it.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { resolvePointer, specDocument } from '../spec/document.js'

const schema = resolvePointer(specDocument, '#/components/parameters/RequestId/schema') as {
  pattern: string
}

/** The spec's X-Request-Id pattern. */
export const requestIdPattern = new RegExp(schema.pattern)

/** Fastify's `genReqId`: echo a sane client id, else generate one. */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers['x-request-id']
  return typeof sent === 'string' && requestIdPattern.test(sent) ? sent : randomUUID()
}
