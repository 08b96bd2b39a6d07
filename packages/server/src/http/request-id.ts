/**
 * X-Request-Id: the client's own id when it is one the response may carry (the pattern of the
 * spec's response header), else a generated UUID. The request parameter accepts any string, as
 * an insane value is replaced, never refused. Fastify puts it on `request.id`, so every log line
 * of the request carries it, and every response, errors included, echoes it.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { resolvePointer, specDocument } from '../spec/document.js'

const schema = resolvePointer(specDocument, '#/components/headers/X-Request-Id/schema') as {
  pattern: string
}

/** The pattern of the X-Request-Id the server sends. */
export const requestIdPattern = new RegExp(schema.pattern)

/** Fastify's `genReqId`: echo a sane client id, else generate one. */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers['x-request-id']
  return typeof sent === 'string' && requestIdPattern.test(sent) ? sent : randomUUID()
}
