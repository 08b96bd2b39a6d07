import type { OperationId } from '@petstore/types'

/**
 * `operationId` by `METHOD path` as in the spec, so warnings can name the operation without the
 * client importing the 50 kB bundled spec (a test checks this table against it).
 */
export const operationIds: Readonly<Record<string, OperationId>> = {
  'GET /pets': 'listPets',
  'POST /pets': 'createPet',
  'GET /pets/{petId}': 'getPet',
  'GET /openapi.json': 'getOpenApiDocument',
  'OPTIONS /openapi.json': 'getOpenApiDocumentOptions',
}
