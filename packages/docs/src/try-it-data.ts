/** The try-it console's view of the spec, computed at build time and embedded in the page. */
import { lifecycleOf } from '@petstore/types/openapi'
import type { TryItData, TryItParameter } from './browser/types.js'
import {
  listOperations,
  type OpenApiDocument,
  parameterExample,
  resolve,
  type Schema,
} from './openapi.js'

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * Operations with their path, query and header parameters, examples, the media type of their body
 * and its first example, and `apiBaseUrl`, the server the built samples name.
 */
export function tryItData(document: OpenApiDocument, apiBaseUrl: string): TryItData {
  const operations = listOperations(document).map((entry) => {
    const parameters: TryItParameter[] = entry.parameters
      .filter((p): p is typeof p & { in: TryItParameter['in'] } => p.in !== 'cookie')
      .map((parameter) => {
        const schema = parameter.schema && resolve<Schema>(document, parameter.schema)
        const result: TryItParameter = {
          name: parameter.name,
          in: parameter.in,
          required: parameter.required === true,
        }
        const example = asText(parameterExample(document, parameter))
        if (example !== undefined) result.example = example
        if (parameter.description) result.description = parameter.description.trim()
        if (Array.isArray(schema?.enum)) result.enum = schema.enum.map(String)
        return result
      })
    const { operation } = entry
    const { sunset } = lifecycleOf(operation)
    return {
      operationId: operation.operationId ?? `${entry.method} ${entry.path}`,
      summary: operation.summary ?? operation.operationId ?? entry.path,
      method: entry.method,
      path: entry.path,
      deprecated: operation.deprecated === true,
      ...(sunset === undefined ? {} : { sunset: sunset.toISOString().slice(0, 10) }),
      parameters,
      ...(entry.bodyMediaType === undefined
        ? {}
        : {
            bodyMediaType: entry.bodyMediaType,
            bodyRequired: resolve(document, operation.requestBody ?? {}).required === true,
          }),
      ...(entry.bodyExamples.length > 0
        ? { body: JSON.stringify(entry.bodyExamples[0], null, 2) }
        : {}),
    }
  })
  return {
    apiBaseUrl,
    operations,
    servers: (document.servers ?? []).map(({ url, description }) =>
      description ? { url, description } : { url },
    ),
  }
}
