/**
 * The request pipeline of the whole app, in the order a request meets it:
 * 1. its id (`genReqId`, then echoed), first so that every later header, log line and error
 *    carries it;
 * 2. `Connection: close` while shutting down, and the completion log once answered;
 * 3. the query string and JSON body parsers (strings kept raw, so validation sees what was sent);
 * 4. under `/v1`, the /v1 pipeline (v1.ts) and then the handlers;
 * 5. the not-found handler (405 with `Allow` for a routed path's other methods, else 404) and
 *    the error handler: the one boundary where anything thrown becomes an Error.
 * The Fastify options this needs (`genReqId`, `querystringParser`) are set in app.ts.
 */
import type { FastifyInstance } from 'fastify'
import { problem } from '../errors.js'
import { logCompletions } from './completion-log.js'
import { handleError } from './error-handler.js'
import { registerJsonBodyParser } from './json-body.js'
import { methodsOutsideV1 } from './methods.js'
import { echoRequestId } from './request-id.js'
import { closeConnectionsOnShutdown } from './shutdown.js'

export function registerPipeline(app: FastifyInstance): void {
  echoRequestId(app)
  closeConnectionsOnShutdown(app)
  logCompletions(app)
  registerJsonBodyParser(app)
  const otherMethod = methodsOutsideV1(app)
  app.setNotFoundHandler(async (request) => {
    throw (
      otherMethod(request) ?? problem('noSuchPath', { path: request.url.split('?', 1)[0] ?? '' })
    )
  })
  app.setErrorHandler(handleError)
}
