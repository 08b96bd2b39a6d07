/** `GET /v1/openapi.json`: the bundled spec the service runs on, public. */
import type { FastifyInstance } from 'fastify'
import type { RouteConfig } from '../http/operations.js'

export function registerOpenApiRoute(scope: FastifyInstance, document: unknown): void {
  const specJson = JSON.stringify(document)
  scope.get(
    '/openapi.json',
    { config: { auth: 'none' } satisfies RouteConfig },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(specJson),
  )
}
