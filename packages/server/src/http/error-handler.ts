/**
 * The single boundary where anything thrown during a request becomes the Error body
 * `{code, message, status}`. Headers already set on the reply (request id, rate limits,
 * deprecation) are kept; unexpected errors are logged with their stack and answered with a
 * fixed `internal_error` message, a store that cannot serve once per fault (store-faults.ts).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiProblem, type ErrorBody, toProblem } from '../errors.js'

export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const problem = toProblem(error)
  if (problem.code === 'service_unavailable') {
    // A store fault is logged once per fault; a 503 thrown on purpose was logged where thrown.
    if (!(error instanceof ApiProblem)) request.server.storeFaults.failed(error)
  } else if (problem.status >= 500) {
    request.log.error({ err: error }, 'request failed')
  }
  const body: ErrorBody = { code: problem.code, message: problem.message, status: problem.status }
  reply.code(problem.status).headers(problem.headers).type('application/json; charset=utf-8')
  reply.send(body)
}
