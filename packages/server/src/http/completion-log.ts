/**
 * One `request completed` line per answer, with its id, status and duration: for every request
 * Fastify answers (here), and for those refused below it (edge.ts), so that the `X-Request-Id`
 * of any answer can be found in the logs.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export interface Completion {
  requestId: string
  method: string
  url: string
  statusCode: number
  ms: number
}

export function logCompletion(log: FastifyBaseLogger, completion: Completion): void {
  log.info(completion, 'request completed')
}

/** The completion of an answer Fastify wrote. */
export function completionOf(request: FastifyRequest, reply: FastifyReply): Completion {
  return {
    requestId: request.id,
    method: request.method,
    url: request.url,
    statusCode: reply.statusCode,
    ms: Math.round(reply.elapsedTime),
  }
}

export function logCompletions(app: FastifyInstance): void {
  // A callback hook (see request-id.ts): every request passes here.
  app.addHook('onResponse', (request, reply, done) => {
    // On the root logger: a request that logs nothing else never builds its child logger.
    logCompletion(app.log, completionOf(request, reply))
    done()
  })
}
