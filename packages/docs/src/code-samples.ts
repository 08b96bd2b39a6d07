/**
 * `x-codeSamples` (curl, TypeScript with `@petstore/client`, JavaScript `fetch` and Python's
 * standard library) generated from each operation's own examples, so a sample can only say what
 * the spec says. The test suite runs every sample, as the rendered page shows it, against a real
 * server: a sample that stops working fails the build instead of rotting in the docs.
 */
import { isJsonMediaType, isSuccessStatus, lifecycleOf } from '@petstore/types/openapi'
import { apiKeyVariable, keyReaders } from './browser/sample-text.js'
import { shellQuote, toPythonLiteral, toTypeScriptLiteral } from './literal.js'
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

export { apiKeyVariable }

/**
 * The languages of the samples, in the order the docs show them. Redoc 3 shows a sample only
 * when its language is in its `codeSamples.languages` option, matched by label (`redocly.ts`
 * passes this list), so every sample's label is one of these.
 * @see https://redocly.com/docs/redoc/config
 */
export const sampleLanguages = [
  { lang: 'Shell', label: 'curl' },
  { lang: 'TypeScript', label: 'TypeScript' },
  { lang: 'JavaScript', label: 'JavaScript' },
  { lang: 'Python', label: 'Python' },
] as const

export type SampleLabel = (typeof sampleLanguages)[number]['label']

/** The example values a sample sends, by parameter location, and its body. */
export interface SampleRequest {
  path: Record<string, unknown>
  query: Record<string, unknown>
  /** Sent as the operation's `bodyMediaType`. */
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
  const sunset = lifecycleOf(operation).sunset?.toISOString().slice(0, 10)
  const successor = operation['x-successor']
  return `Deprecated${sunset ? ` (sunset ${sunset})` : ''}${successor ? `: use ${successor} instead` : ''}.`
}

/**
 * Whether the operation's success response has a JSON body: a `204` (`deletePet`, an `OPTIONS`
 * answer) has none, and its samples print the status instead.
 */
function answersJson(document: OpenApiDocument, entry: OperationEntry): boolean {
  const responses = entry.operation.responses ?? {}
  const success = Object.keys(responses).find(isSuccessStatus)
  if (!success) return false
  const response = resolve<{ content?: Record<string, unknown> }>(
    document,
    responses[success] as object,
  )
  return Object.keys(response.content ?? {}).some((type) => isJsonMediaType(type))
}

/** The `Content-Type` a sample sends its body with: the one the operation declares. */
function bodyMediaType(entry: OperationEntry): string {
  if (entry.bodyMediaType === undefined) {
    throw new Error(`${entry.operation.operationId}: a sample body, but no request body declared`)
  }
  return entry.bodyMediaType
}

/** What a sample prints of an answer without a body (a `204`): its status, and why. */
const noBody = 'the answer has no body'

/**
 * A curl command for the operation against `baseUrl`, reading the key from the environment. An
 * answer without a body is shown with its status line and headers (`-i`): they are all it says.
 */
export function curlSample(
  baseUrl: string,
  entry: OperationEntry,
  request: SampleRequest,
  json = true,
): string {
  const url = requestUrl(baseUrl, entry, request)
  const method = entry.method.toUpperCase()
  const flags = `-sS${json ? '' : 'i'}${method === 'GET' ? '' : ` -X ${method}`}`
  const lines = [`curl ${flags} ${shellQuote(url)}`]
  lines.push(`  -H "Authorization: Bearer ${keyReaders.shell.read}"`)
  if (request.body !== undefined) {
    lines.push(`  -H ${shellQuote(`Content-Type: ${bodyMediaType(entry)}`)}`)
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
  json = true,
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
    '// npm i @petstore/client',
    `import { createPetstoreClient } from '@petstore/client'`,
    '',
    'const client = createPetstoreClient({',
    `  baseUrl: ${toTypeScriptLiteral(baseUrl)},`,
    `  apiKey: ${keyReaders.javascript.read},`,
    '})',
    '',
    ...(note ? [`// ${note}`] : []),
    `const { ${json ? 'data' : 'response'}, error } = await ${call}`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the sample's own
    'if (error) throw new Error(`${error.code}: ${error.message}`)',
    json ? 'console.log(data)' : `console.log(response.status) // ${noBody}`,
    '',
  ].join('\n')
}

/** The URL a sample calls: `baseUrl`, the path with its parameters, then the query. */
export function requestUrl(baseUrl: string, entry: OperationEntry, request: SampleRequest): string {
  const query = new URLSearchParams(
    Object.entries(request.query).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString()
  return `${baseUrl}${expandPath(entry.path, request.path)}${query ? `?${query}` : ''}`
}

/** A Node.js ES module with the built-in `fetch` (also fine in a browser, without `process`). */
export function javascriptSample(
  baseUrl: string,
  entry: OperationEntry,
  request: SampleRequest,
  json = true,
): string {
  const init = [`  method: '${entry.method.toUpperCase()}',`]
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the sample's own
  const headers = ['Authorization: `Bearer ${apiKey}`']
  if (request.body !== undefined) {
    headers.push(`'Content-Type': ${toTypeScriptLiteral(bodyMediaType(entry))}`)
  }
  init.push(`  headers: { ${headers.join(', ')} },`)
  if (request.body !== undefined) {
    init.push(`  body: JSON.stringify(${toTypeScriptLiteral(request.body)}),`)
  }
  const note = deprecationNote(entry)
  return [
    `const apiKey = ${keyReaders.javascript.read}`,
    ...(note ? [`// ${note}`] : []),
    `const url = ${toTypeScriptLiteral(requestUrl(baseUrl, entry, request))}`,
    'const response = await fetch(url, {',
    ...init,
    '})',
    ...(json
      ? [
          'const body = await response.json()',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the sample's own
          'if (!response.ok) throw new Error(`${response.status} ${body.code}: ${body.message}`)',
          'console.log(body)',
        ]
      : [
          'if (!response.ok) {',
          '  const error = await response.json()',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the sample's own
          '  throw new Error(`${response.status} ${error.code}: ${error.message}`)',
          '}',
          `console.log(response.status) // ${noBody}`,
        ]),
    '',
  ].join('\n')
}

/** A Python 3 program on the standard library alone (`urllib.request`). */
export function pythonSample(
  baseUrl: string,
  entry: OperationEntry,
  request: SampleRequest,
  json = true,
): string {
  const headers = ['"Authorization": "Bearer " + api_key']
  const args = [`    ${JSON.stringify(requestUrl(baseUrl, entry, request))},`]
  args.push(`    method="${entry.method.toUpperCase()}",`)
  if (request.body !== undefined) {
    headers.push(`"Content-Type": ${JSON.stringify(bodyMediaType(entry))}`)
    args.push(`    data=json.dumps(${toPythonLiteral(request.body)}).encode(),`)
  }
  args.push(`    headers={${headers.map((header) => `\n        ${header},`).join('')}\n    },`)
  const note = deprecationNote(entry)
  return [
    'import json',
    'import os',
    'import urllib.request',
    '',
    `api_key = ${keyReaders.python.read}`,
    ...(note ? [`# ${note}`] : []),
    'request = urllib.request.Request(',
    ...args,
    ')',
    '# An error status raises urllib.error.HTTPError; its body is the Error JSON.',
    'with urllib.request.urlopen(request) as response:',
    json
      ? '    print(json.dumps(json.load(response), indent=2))'
      : `    print(response.status)  # ${noBody}`,
    '',
  ].join('\n')
}

/** The server the built samples and try-it address: `PETSTORE_DOCS_API_URL`, else `servers[0]`. */
export function sampleBaseUrl(
  document: OpenApiDocument,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const url = env.PETSTORE_DOCS_API_URL?.trim() || document.servers?.[0]?.url
  if (!url) throw new Error('the spec names no server to write samples against')
  return url.replace(/\/+$/, '')
}

/**
 * The samples of one operation against `baseUrl`, in the order of `sampleLanguages`: those of
 * its examples (`sampleRequest`), or of another `request` (the docs' tests send the ids of
 * resources made for each sample).
 */
export function codeSamples(
  document: OpenApiDocument,
  entry: OperationEntry,
  baseUrl = sampleBaseUrl(document),
  request = sampleRequest(document, entry),
): CodeSample[] {
  const json = answersJson(document, entry)
  const sources: Record<SampleLabel, string> = {
    curl: curlSample(baseUrl, entry, request, json),
    TypeScript: typescriptSample(baseUrl, entry, request, json),
    JavaScript: javascriptSample(baseUrl, entry, request, json),
    Python: pythonSample(baseUrl, entry, request, json),
  }
  return sampleLanguages.map(({ lang, label }) => ({ lang, label, source: sources[label] }))
}

/**
 * Adds `x-codeSamples` to every operation of a copy of the document (Redoc shows them beside
 * the operation).
 * @see https://redocly.com/docs-legacy/api-reference-docs/specification-extensions/x-code-samples
 */
export function withCodeSamples(
  document: OpenApiDocument,
  baseUrl = sampleBaseUrl(document),
): OpenApiDocument {
  const copy = structuredClone(document)
  for (const entry of listOperations(copy)) {
    entry.operation['x-codeSamples'] = codeSamples(copy, entry, baseUrl)
  }
  return copy
}
