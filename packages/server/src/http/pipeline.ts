/**
 * The request pipeline of the whole app, in the order a request meets it:
 * 1. its id (`genReqId`), then one `onRequest` hook: the request is held for the edge's
 *    refusals (edge.ts), its id echoed, so that every later header, log line and error carries
 *    it, `Connection: close` set while shutting down, and its head checked
 *    (request-head-checks.ts);
 * 2. the completion log once answered;
 * 3. the query string and JSON body parsers (strings kept raw, so validation sees what was sent);
 * 4. under `/v1`, the /v1 pipeline (v1.ts) and then the handlers;
 * 5. the not-found answer (405 with `Allow` for a routed path's other methods, else 404), given
 *    before the body is read (methods.ts), and the error handler: the one boundary where
 *    anything thrown becomes an Error.
 * The Fastify options this needs (`genReqId`, `querystringParser`) are set in app.ts.
 *
 * The first steps share one synchronous hook: every request passes there, and each hook stage
 * costs Fastify's hook runner, an async one a promise and a microtask more.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type ApiProblem, problem } from '../errors.js'
import { callbackHook } from './callback-hooks.js'
import { logCompletions } from './completion-log.js'
import { type HeldRequests, trackHeldRequests } from './edge.js'
import { handleError } from './error-handler.js'
import { registerJsonBodyParser } from './json-body.js'
import { answerUnrouted, methodsOutsideV1 } from './methods.js'
import { handOverHeadChecks, headProblem } from './request-head-checks.js'
import { closeConnectionsOnShutdown } from './shutdown.js'

export interface PipelineOptions {
  held: HeldRequests
  /** Answers a refused head after the /v1 steps that apply to a refusal (edge.ts). */
  refuseHead: (problem: ApiProblem, request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

export function registerPipeline(app: FastifyInstance, options: PipelineOptions): void {
  const holdRequest = trackHeldRequests(app, options.held)
  const markIfClosing = closeConnectionsOnShutdown(app, options.held)
  handOverHeadChecks(app)
  app.addHook(
    'onRequest',
    callbackHook((request, reply) => {
      holdRequest(request, reply)
      reply.header('x-request-id', request.id)
      markIfClosing(reply)
      const refused = headProblem(request)
      // Answered: Fastify stops at a sent reply when the hook is done.
      if (refused !== undefined) return options.refuseHead(refused, request, reply)
    }),
  )
  logCompletions(app)
  registerJsonBodyParser(app)
  const otherMethod = methodsOutsideV1(app)
  answerUnrouted(
    app,
    (request) =>
      otherMethod(request) ?? problem('noSuchPath', { path: request.url.split('?', 1)[0] ?? '' }),
  )
  app.setErrorHandler(handleError)
}
