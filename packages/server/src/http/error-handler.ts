/**
 * The single boundary where anything thrown during a request becomes the Error body
 * `{code, message, status}`. Headers already set on the reply (request id, rate limits,
 * deprecation) are kept; unexpected errors are logged with their stack and answered with a
 * fixed `internal_error` message.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { BackendUnavailableError, type ErrorBody, toProblem } from '../errors.js'

export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const problem = toProblem(error)
  if (error instanceof BackendUnavailableError) {
    // An outage, not a bug: no stack. A lost Redis is logged once where it is detected.
    if (error.backend !== 'redis') request.log.warn(`${error.message}: answered 503`)
  } else if (problem.status >= 500 && problem !== error) {
    // A 5xx thrown as an ApiProblem is a deliberate answer (a readiness check), logged there.
    request.log.error({ err: error }, 'request failed')
  }
  const body: ErrorBody = { code: problem.code, message: problem.message, status: problem.status }
  reply.code(problem.status).headers(problem.headers).type('application/json; charset=utf-8')
  reply.send(body)
}
