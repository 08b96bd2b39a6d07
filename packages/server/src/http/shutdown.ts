/**
 * While shutting down, in-flight requests are answered with `Connection: close` so that
 * keep-alive clients do not hold the server open after their response (server.close waits for
 * them). Those in flight when closing starts are marked then, through the held replies; one
 * that starts later is marked by the app's first hook (`markIfClosing`). Fastify answers any
 * request routed after that point with its own 503 and `Connection: close`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { HeldRequests } from './edge.js'

export function closeConnectionsOnShutdown(
  app: FastifyInstance,
  held: Pick<HeldRequests, 'replies'>,
): (reply: FastifyReply) => void {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    for (const reply of held.replies.values()) markClose(reply)
  })
  return function markIfClosing(reply) {
    if (closing) markClose(reply)
  }
}

function markClose(reply: FastifyReply): void {
  if (!reply.sent && !reply.raw.headersSent) reply.header('connection', 'close')
}
