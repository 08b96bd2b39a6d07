/**
 * Readers search for an operation by the name the spec, the client and the error messages use
 * (`createPet`), but Redoc's search indexes an operation's title and text, not its
 * `operationId`. Stating the id in the operation's description makes it both visible and found.
 */
import { listOperations, type OpenApiDocument } from './openapi.js'

/** The line added to each operation's description. */
export function operationIdLine(operationId: string): string {
  return `Operation ID: \`${operationId}\``
}

/** A copy of the document whose operations name their `operationId` in their description. */
export function withOperationIds(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document)
  for (const { operation } of listOperations(copy)) {
    if (!operation.operationId) continue
    const line = operationIdLine(operation.operationId)
    const description =
      typeof operation.description === 'string' ? operation.description.trim() : ''
    operation.description = description ? `${line}\n\n${description}` : line
  }
  return copy
}
