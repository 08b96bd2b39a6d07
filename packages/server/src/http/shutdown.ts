/**
 * While shutting down, in-flight requests are answered with `Connection: close` so that
 * keep-alive clients do not hold the server open after their response (server.close waits for
 * them). Those in flight when closing starts are marked then, through the held replies; one
 * that starts later is marked by the app's first hook (`markIfClosing`) and answered as any
 * other.
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

/**
 * How long a stopping process keeps its idle keep-alive connections open: long enough for a
 * request a client had already sent when the stop began to arrive and be answered.
 */
export const idleConnectionGraceMs = 1000

/**
 * For a process that is being stopped (SIGTERM): Node's `server.close()` destroys every
 * keep-alive connection that is idle at that instant, and a request a client has just sent on one
 * (still on its way, or not read yet) then meets a reset connection, though the client did
 * nothing wrong. Those connections are closed `graceMs` later instead: a request that arrives
 * meanwhile is answered, with `Connection: close`, and only a client that sends nothing is cut.
 */
export function closeIdleConnectionsLate(app: FastifyInstance, graceMs: number): void {
  const server = app.server
  const closeIdle = server.closeIdleConnections.bind(server)
  server.closeIdleConnections = () => {
    setTimeout(closeIdle, graceMs)
  }
}
