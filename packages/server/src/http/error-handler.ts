/**
 * The single boundary where anything thrown during a request becomes the Error body
 * `{code, message, status}`. Headers already set on the reply (request id, rate limits,
 * deprecation) are kept; unexpected errors are logged with their stack and answered with a
 * fixed `internal_error` message, an outage once per condition (backend-failure.ts). A
 * connection closed after the answer closes lingering (linger.ts).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { type Backend, isBackendUnavailable } from '../backend-failure.js'
import { ApiProblem, toProblem } from '../errors.js'

export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const problem = toProblem(error)
  if (problem.code === 'service_unavailable') {
    // An outage, not a bug: logged once per condition (backend-failure.ts); a 503 thrown on purpose (an
    // ApiProblem, e.g. readiness) was reported where thrown.
    if (!(error instanceof ApiProblem)) request.server.outages.failed(backendOf(error), error)
  } else if (problem.status >= 500 && problem !== error) {
    // A 5xx thrown as an ApiProblem is a deliberate answer, logged where it is thrown.
    request.log.error({ err: error }, 'request failed')
  }
  // A refusal that leaves the body unread closes the connection (Fastify and edge.ts ask for it):
  // lingering, so that a client still sending reads the answer instead of a reset.
  if (!request.raw.complete && reply.getHeader('connection') === 'close') {
    request.server.lingering.afterResponse(request.raw.socket)
  }
  reply.code(problem.status).headers(problem.headers).type('application/json; charset=utf-8')
  reply.send(problem.body())
}

function backendOf(error: unknown): Backend {
  return isBackendUnavailable(error) ? error.backend : 'store'
}
