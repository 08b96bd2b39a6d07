/**
 * While shutting down, in-flight requests are answered with `Connection: close` so that
 * keep-alive clients do not hold the server open after their response (server.close waits for
 * them).
 */
import type { FastifyInstance } from 'fastify'

export function closeConnectionsOnShutdown(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
}
