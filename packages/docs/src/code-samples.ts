/**
 * `x-codeSamples` (curl and the TypeScript client) generated from each operation's own examples,
 * so a sample can only say what the spec says. The test suite runs every sample against a real
 * server: a sample that stops working fails the build instead of rotting in the docs.
 */
import { shellQuote, toTypeScriptLiteral } from './literal.js'
import {
  type CodeSample,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  type Parameter,
  parameterExample,
  resolve,
  type Schema,
} from './openapi.js'

/** The environment variable every sample reads the API key from. */
export const apiKeyVariable = 'PETSTORE_API_KEY'

export const curlLabel = 'curl'
export const typescriptLabel = 'TypeScript (@petstore/client)'

/** The example values a sample sends, by parameter location. */
export interface SampleRequest {
  path: Record<string, unknown>
  query: Record<string, unknown>
  body: unknown
}

/**
 * Picks what a newcomer's first request sends: every required parameter, and the optional query
 * parameters whose example is a bounded value (a number, a boolean or an enum member). Opaque
 * strings such as a pagination cursor are left out: their examples are not valid on a real server.
 */
export function sampleRequest(document: OpenApiDocument, entry: OperationEntry): SampleRequest {
  const request: SampleRequest = { path: {}, query: {}, body: entry.bodyExamples[0] }
  for (const parameter of entry.parameters) {
    const example = parameterExample(document, parameter)
    if (example === undefined) continue
    if (parameter.in === 'path') request.path[parameter.name] = example
    else if (parameter.in === 'query' && (parameter.required || isBounded(document, parameter))) {
      request.query[parameter.name] = example
    }
  }
  return request
}

function isBounded(document: OpenApiDocument, parameter: Parameter): boolean {
  if (!parameter.schema) return false
  const schema = resolve<Schema>(document, parameter.schema)
  return (
    Array.isArray(schema.enum) || ['integer', 'number', 'boolean'].includes(String(schema.type))
  )
}

function expandPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name] ?? `{${name}}`)),
  )
}

function deprecationNote(entry: OperationEntry): string | undefined {
  const { operation } = entry
  if (!operation.deprecated) return undefined
  const sunset = operation['x-sunset']?.slice(0, 10)
  const successor = operation['x-successor']
  return `Deprecated${sunset ? ` (sunset ${sunset})` : ''}${successor ? `: use ${successor} instead` : ''}.`
}

/** A curl command for the operation against `baseUrl`, reading the key from the environment. */
export function curlSample(baseUrl: string, entry: OperationEntry, request: SampleRequest): string {
  const query = new URLSearchParams(
    Object.entries(request.query).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString()
  const url = `${baseUrl}${expandPath(entry.path, request.path)}${query ? `?${query}` : ''}`
  const method = entry.method.toUpperCase()
  const lines = [`curl -sS${method === 'GET' ? '' : ` -X ${method}`} ${shellQuote(url)}`]
  lines.push(`  -H "Authorization: Bearer $${apiKeyVariable}"`)
  if (request.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`)
    lines.push(`  -d ${shellQuote(JSON.stringify(request.body))}`)
  }
  const note = deprecationNote(entry)
  return `${note ? `# ${note}\n` : ''}${lines.join(' \\\n')}`
}

/** A TypeScript program using `@petstore/client` for the operation, as a reader would paste it. */
export function typescriptSample(
  baseUrl: string,
  entry: OperationEntry,
  request: SampleRequest,
): string {
  const options: string[] = []
  const params: string[] = []
  if (Object.keys(request.path).length > 0)
    params.push(`path: ${toTypeScriptLiteral(request.path)}`)
  if (Object.keys(request.query).length > 0) {
    params.push(`query: ${toTypeScriptLiteral(request.query)}`)
  }
  if (params.length > 0) options.push(`params: { ${params.join(', ')} }`)
  if (request.body !== undefined) options.push(`body: ${toTypeScriptLiteral(request.body)}`)
  const call = `client.${entry.method.toUpperCase()}(${toTypeScriptLiteral(entry.path)}${
    options.length > 0 ? `, {\n  ${options.join(',\n  ')},\n}` : ''
  })`
  const note = deprecationNote(entry)
  return [
    `import { createPetstoreClient } from '@petstore/client'`,
    '',
    'const client = createPetstoreClient({',
    `  baseUrl: ${toTypeScriptLiteral(baseUrl)},`,
    `  apiKey: process.env.${apiKeyVariable} ?? '',`,
    '})',
    '',
    ...(note ? [`// ${note}`] : []),
    `const { data, error } = await ${call}`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the sample's own
    'if (error) throw new Error(`${error.code}: ${error.message}`)',
    'console.log(data)',
    '',
  ].join('\n')
}

/** Both samples of one operation, in the order the docs show them. */
export function codeSamples(document: OpenApiDocument, entry: OperationEntry): CodeSample[] {
  const baseUrl = document.servers?.[0]?.url
  if (!baseUrl) throw new Error('the spec names no server to write samples against')
  const request = sampleRequest(document, entry)
  return [
    { lang: 'Shell', label: curlLabel, source: curlSample(baseUrl, entry, request) },
    {
      lang: 'TypeScript',
      label: typescriptLabel,
      source: typescriptSample(baseUrl, entry, request),
    },
  ]
}

/**
 * Adds `x-codeSamples` to every operation of a copy of the document (Redoc shows them beside
 * the operation).
 * @see https://redocly.com/docs-legacy/api-reference-docs/specification-extensions/x-code-samples
 */
export function withCodeSamples(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document)
  for (const entry of listOperations(copy)) {
    entry.operation['x-codeSamples'] = codeSamples(copy, entry)
  }
  return copy
}
