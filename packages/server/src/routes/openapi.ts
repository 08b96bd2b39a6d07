/** `GET /v1/openapi.json` (operation `getOpenApiDocument`): the bundled spec the service runs on. */
import type { OperationRoute } from '../http/operations.js'

export function createOpenApiRoute(document: unknown): OperationRoute {
  const specJson = JSON.stringify(document)
  return {
    handler: async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(specJson),
  }
}
