/** One `request completed` line per request, with its id, status and duration. */
import type { FastifyInstance } from 'fastify'

export function logCompletions(app: FastifyInstance): void {
  // A callback hook (see request-id.ts): every request passes here.
  app.addHook('onResponse', (request, reply, done) => {
    // On the root logger: a request that logs nothing else never builds its child logger.
    app.log.info(
      {
        requestId: request.id,
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    )
    done()
  })
}
