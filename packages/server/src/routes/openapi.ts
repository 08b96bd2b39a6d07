/** `GET /v1/openapi.json` (operation `getOpenApiDocument`): the bundled spec the service runs on. */
import type { OperationRoute } from '../http/contract.js'
import { preSerialized } from '../http/contract.js'

export function createOpenApiRoute(document: unknown): OperationRoute<'getOpenApiDocument'> {
  // Serialized once: the document is the spec itself, so it matches its own schema.
  const specJson = JSON.stringify(document)
  return { handler: async () => ({ status: 200, body: preSerialized(specJson) }) }
}
