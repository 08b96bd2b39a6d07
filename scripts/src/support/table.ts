/**
 * What the spec may declare: each row of the support table names a construct, what of it the
 * generator and the runtime support end to end (server, store, client, docs), and the check that
 * finds any other use of it in a document. `pnpm generate` and `pnpm lint` refuse a spec with a
 * finding, naming the construct, where it is and the row (`unsupported`); `spec/SUPPORT.md` is
 * rendered from these rows (render.ts), so the table a reader sees is the one enforced.
 *
 * Filters are not the spec's to declare (their rules are code: the server's `resources.ts`), but
 * their row is here so the table lists every capability a spec edit may lean on.
 */
import {
  dereference,
  isErrorStatus,
  isJsonMediaType,
  operationsOf,
  resolveRef,
} from '@petstore/types/openapi/source'
// The client's own list (dependency-free source): the table shows and enforces what it parses.
import {
  fieldHeaderName,
  fieldName,
  hasOwnField,
  parsedHeaders,
  parsedLinkRelation,
} from '../../../packages/client/src/header-fields.js'

type Node = Record<string, unknown>

/** One use of a construct the table does not support. */
export interface Unsupported {
  /** The row's id, e.g. `parameter-type`. */
  row: string
  /** What was found, e.g. `cookie parameter "session"`. */
  construct: string
  /** A JSON pointer into the document. */
  where: string
}

export interface SupportRow {
  id: string
  construct: string
  /** What is supported, as the table shows it. */
  supported: string
  /** Where each layer handles it, as the table shows it. */
  handledBy: string
  /** Finds uses of the construct outside the row; none for a row the spec cannot declare. */
  check?(document: Node): Unsupported[]
}

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** A JSON pointer from reference tokens (RFC 6901). */
export function pointer(tokens: readonly (string | number)[]): string {
  return ['#', ...tokens.map((t) => String(t).replaceAll('~', '~0').replaceAll('/', '~1'))].join(
    '/',
  )
}

/** The reference tokens of a JSON pointer from `pointer`. */
export function pointerTokens(where: string): string[] {
  return where
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** JSON Schema keywords that decide validity and that every layer reads (the fuzz generator too). */
export const schemaConstraints: readonly string[] = [
  'type',
  'enum',
  'const',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
]

/** Keywords that never change which values are valid. */
export const schemaAnnotations: readonly string[] = [
  '$ref',
  'title',
  'description',
  'default',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
]

/**
 * The formats the server's validator checks, by the type they apply to. A validator ignores a
 * format it does not know, so any other would be documented and never enforced.
 */
export const schemaFormats: Readonly<Record<string, string>> = {
  int32: 'integer',
  int64: 'integer',
  'date-time': 'string',
}

/** The scalar types a parameter may have, by where it is sent. */
export const parameterTypes: Readonly<Record<string, readonly string[]>> = {
  path: ['integer', 'string'],
  query: ['integer', 'number', 'boolean', 'string', 'array'],
  header: ['integer', 'number', 'boolean', 'string'],
}

/** How each location's values are written on the wire: OpenAPI's default style for each. */
const parameterStyles: Readonly<Record<string, string>> = {
  path: 'simple',
  query: 'form',
  header: 'simple',
}

/** The matchers of a listing filter (server `FilterRule`), on a property path such as `a.b`. */
export const filterMatchers = ['equals', 'prefix'] as const

interface Operation {
  path: string
  method: string
  operation: Node
  parameters: Node[]
}

function operations(document: Node): Operation[] {
  return operationsOf<Node, Node>(document).map(({ path, method, operation, parameters }) => ({
    path,
    method,
    operation,
    parameters,
  }))
}

/** Every response of every operation, `$ref` resolved, with where it is. */
function responses(document: Node): { at: (string | number)[]; response: Node }[] {
  return operations(document).flatMap(({ path, method, operation }) =>
    Object.entries((operation.responses ?? {}) as Node).map(([status, raw]) => ({
      at: ['paths', path, method, 'responses', status],
      response: resolveRef<Node>(document, raw as Node),
    })),
  )
}

/** A schema with `$ref`s inlined (recursive ones kept as references). */
const inlined = (document: Node, schema: unknown): Node =>
  (dereference(schema ?? {}, document, { cycles: 'keep' }) ?? {}) as Node

/** Every subschema of `schema` with its pointer tokens (below `at`). */
function subschemas(schema: unknown, at: (string | number)[]): [Node, (string | number)[]][] {
  if (!isNode(schema)) return []
  const found: [Node, (string | number)[]][] = [[schema, at]]
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isNode(value)) {
      for (const [name, child] of Object.entries(value))
        found.push(...subschemas(child, [...at, key, name]))
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      value.forEach((child, index) => {
        found.push(...subschemas(child, [...at, key, index]))
      })
    } else if (['items', 'additionalProperties', 'not', 'contains'].includes(key)) {
      found.push(...subschemas(value, [...at, key]))
    }
  }
  return found
}

/**
 * Every schema the document writes, each where it is written (a `$ref` is followed at its
 * target, so a component is reported once): components' schemas, parameters' and headers', and
 * those written inline in operations.
 */
function writtenSchemas(document: Node): [Node, (string | number)[]][] {
  const found: [Node, (string | number)[]][] = []
  const visit = (node: unknown, at: (string | number)[]): void => {
    if (!isNode(node)) return
    if (isNode(node.schema)) found.push([node.schema, [...at, 'schema']])
    for (const [type, media] of Object.entries((node.content ?? {}) as Node)) {
      if (isNode(media) && isNode(media.schema))
        found.push([media.schema, [...at, 'content', type, 'schema']])
    }
  }
  const components = (document.components ?? {}) as Node
  for (const [name, schema] of Object.entries((components.schemas ?? {}) as Node)) {
    if (isNode(schema)) found.push([schema, ['components', 'schemas', name]])
  }
  for (const kind of ['parameters', 'headers', 'requestBodies']) {
    for (const [name, item] of Object.entries((components[kind] ?? {}) as Node))
      visit(item, ['components', kind, name])
  }
  for (const [name, response] of Object.entries((components.responses ?? {}) as Node)) {
    visit(response, ['components', 'responses', name])
    for (const [header, item] of Object.entries(((response as Node).headers ?? {}) as Node))
      visit(item, ['components', 'responses', name, 'headers', header])
  }
  for (const [path, item] of Object.entries((document.paths ?? {}) as Node)) {
    if (!isNode(item)) continue
    for (const [method, operation] of Object.entries(item)) {
      if (!isNode(operation)) continue
      const at = ['paths', path, method]
      ;((operation.parameters ?? []) as unknown[]).forEach((parameter, index) => {
        visit(parameter, [...at, 'parameters', index])
      })
      visit(operation.requestBody, [...at, 'requestBody'])
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Node)) {
        visit(response, [...at, 'responses', status])
        for (const [header, item] of Object.entries(((response as Node)?.headers ?? {}) as Node))
          visit(item, [...at, 'responses', status, 'headers', header])
      }
    }
  }
  return found
}

const known = new Set([...schemaConstraints, ...schemaAnnotations])

export const supportTable: readonly SupportRow[] = [
  {
    id: 'request-media-type',
    construct: 'Request body media types',
    supported:
      '`application/json`, `application/merge-patch+json` and any other `application/*+json` (one JSON parser; each operation accepts only the types it declares, else 415), all of one operation with the same schema',
    handledBy:
      'server `http/json-body.ts`, `http/operations.ts`; client (the declared `Content-Type`); docs samples and try-it',
    check(document) {
      const found: Unsupported[] = []
      for (const { path, method, operation } of operations(document)) {
        const body = resolveRef<Node>(document, (operation.requestBody ?? {}) as Node)
        const content = (body.content ?? {}) as Node
        for (const type of Object.keys(content)) {
          if (!isJsonMediaType(type)) {
            found.push({
              row: this.id,
              construct: `request body media type ${type}`,
              where: pointer(['paths', path, method, 'requestBody', 'content', type]),
            })
          }
        }
        const schemas = new Set(
          Object.values(content).map((media) =>
            JSON.stringify(inlined(document, (media as Node | undefined)?.schema)),
          ),
        )
        if (schemas.size > 1) {
          found.push({
            row: this.id,
            construct: 'request body media types with different schemas',
            where: pointer(['paths', path, method, 'requestBody', 'content']),
          })
        }
      }
      return found
    },
  },
  {
    id: 'response-media-type',
    construct: 'Response body media types',
    supported: '`application/json`, or no body',
    handledBy: 'server response serialization; client `data`/`error`; docs',
    check(document) {
      const found: Unsupported[] = []
      for (const { at, response } of responses(document)) {
        for (const type of Object.keys((response.content ?? {}) as Node)) {
          if (type !== 'application/json') {
            found.push({
              row: this.id,
              construct: `response media type ${type}`,
              where: pointer([...at, 'content', type]),
            })
          }
        }
      }
      return found
    },
  },
  {
    id: 'parameter-location',
    construct: 'Parameter locations',
    supported: '`path`, `query`, `header`',
    handledBy: 'server `spec/request-validation.ts`; client (openapi-fetch `params`); docs samples',
    check(document) {
      return parameterFindings(document, (parameter, at) =>
        String(parameter.in) in parameterTypes
          ? []
          : [
              {
                row: this.id,
                construct: `${String(parameter.in)} parameter "${String(parameter.name)}"`,
                where: at,
              },
            ],
      )
    },
  },
  {
    id: 'parameter-type',
    construct: 'Parameter types',
    supported:
      'path: `integer`, `string`; query: `integer`, `number`, `boolean`, `string`, enums of each, and arrays of those; header: `integer`, `number`, `boolean`, `string` (a `schema`, not `content`; one type, no `null`)',
    handledBy: 'server `spec/parameter-values.ts` (strict reading), then the schema; client; docs',
    check(document) {
      return parameterFindings(document, (parameter, at) => {
        const allowed = parameterTypes[String(parameter.in)]
        if (allowed === undefined) return []
        const describe = `${String(parameter.in)} parameter "${String(parameter.name)}"`
        if (parameter.schema === undefined) {
          return [{ row: this.id, construct: `${describe} without a schema`, where: at }]
        }
        const schema = inlined(document, parameter.schema)
        const type = typeOf(schema)
        if (type === undefined || !allowed.includes(type)) {
          return [
            {
              row: this.id,
              construct: `${describe} of type ${JSON.stringify(schema.type ?? 'any')}`,
              where: at,
            },
          ]
        }
        if (type === 'array') {
          const itemType = typeOf(inlined(document, schema.items))
          if (itemType === undefined || itemType === 'array' || !allowed.includes(itemType)) {
            return [
              {
                row: this.id,
                construct: `${describe} of arrays of ${JSON.stringify(itemType ?? 'any')}`,
                where: at,
              },
            ]
          }
        }
        return []
      })
    },
  },
  {
    id: 'parameter-style',
    construct: 'Parameter serialization',
    supported:
      "OpenAPI's defaults only: `simple` in path and header, `form` exploded in query (a query array is the parameter repeated: `?tag=a&tag=b`)",
    handledBy: 'server `http/querystring.ts`, `spec/request-validation.ts`; client',
    check(document) {
      return parameterFindings(document, (parameter, at) => {
        const location = String(parameter.in)
        const style = parameterStyles[location]
        const given = parameter.style ?? style
        const describe = `${location} parameter "${String(parameter.name)}"`
        const found: Unsupported[] = []
        if (given !== style)
          found.push({
            row: this.id,
            construct: `${describe} with style ${String(given)}`,
            where: at,
          })
        if (parameter.explode === false && location === 'query')
          found.push({ row: this.id, construct: `${describe} with explode: false`, where: at })
        for (const option of ['allowReserved', 'allowEmptyValue', 'content']) {
          if (parameter[option] !== undefined)
            found.push({ row: this.id, construct: `${describe} with ${option}`, where: at })
        }
        return found
      })
    },
  },
  {
    id: 'schema-keyword',
    construct: 'Schema keywords (request and response bodies, parameters)',
    supported: `constraints ${schemaConstraints.map((k) => `\`${k}\``).join(', ')}; annotations ${schemaAnnotations.map((k) => `\`${k}\``).join(', ')}; nested objects, arrays, \`null\` in \`type\` lists, \`oneOf\`/\`anyOf\`/\`allOf\``,
    handledBy:
      'server validation (Ajv, 2020-12) and storage (documents keep any JSON); client types (openapi-typescript); fuzz generator (`packages/server/test/fuzz/`)',
    check(document) {
      const found: Unsupported[] = []
      for (const [schema, at] of writtenSchemas(document)) {
        for (const [sub, where] of subschemas(schema, at)) {
          for (const keyword of Object.keys(sub)) {
            if (!known.has(keyword) && !keyword.startsWith('x-')) {
              found.push({
                row: this.id,
                construct: `schema keyword ${keyword}`,
                where: pointer([...where, keyword]),
              })
            }
          }
        }
      }
      return found
    },
  },
  {
    id: 'schema-format',
    construct: 'Formats',
    supported: Object.entries(schemaFormats)
      .map(([format, type]) => `\`${format}\` (${type})`)
      .join(', '),
    handledBy: 'server `spec/ajv.ts`; client types; fuzz generator',
    check(document) {
      const found: Unsupported[] = []
      for (const [schema, at] of writtenSchemas(document)) {
        for (const [sub, where] of subschemas(schema, at)) {
          const format = sub.format
          if (format !== undefined && !(String(format) in schemaFormats)) {
            found.push({
              row: this.id,
              construct: `format ${String(format)}`,
              where: pointer([...where, 'format']),
            })
          }
        }
      }
      return found
    },
  },
  {
    id: 'response-header',
    construct: 'Response headers',
    supported: 'a `schema` of type `string` or `integer`',
    handledBy:
      'server (one owner per header: `http/response-headers.ts`; required ones checked on every answer); client `meta.ts`; docs',
    check(document) {
      const found: Unsupported[] = []
      for (const { at, response } of responses(document)) {
        for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as Node)) {
          const header = resolveRef<Node>(document, rawHeader as Node)
          const type = typeOf(inlined(document, header.schema))
          if (header.content !== undefined || (type !== 'string' && type !== 'integer')) {
            found.push({
              row: this.id,
              construct: `response header ${name} of type ${JSON.stringify(type ?? 'any')}`,
              where: pointer([...at, 'headers', name]),
            })
          }
        }
      }
      return found
    },
  },
  {
    id: 'response-header-field',
    construct: "Response header names (the client's `meta`)",
    supported: `letters and digits in words joined by \`-\`, one schema type per name; the client parses ${Object.entries(
      parsedHeaders,
    )
      .map(
        ([name, field]) =>
          `\`${name}\`${name === 'Link' ? ` (\`rel="${parsedLinkRelation}"\`)` : ''} into \`${field}\``,
      )
      .join(
        ', ',
      )}; every other declared header (a \`Link\` without that relation too) gets a field named after it in camelCase (\`ETag\` into \`meta.etag\`) holding its text, or its number for an \`integer\` schema, which may not take a parsed field's name`,
    handledBy:
      'client `header-fields.ts` (this list), `meta.ts` (the fields and their types); generated `responseHeaderTypes`',
    check(document) {
      const found: Unsupported[] = []
      const parsedFields = new Set<string>(Object.values(parsedHeaders))
      const types = new Map<string, string | undefined>()
      for (const { at, response } of responses(document)) {
        for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as Node)) {
          const where = pointer([...at, 'headers', name])
          const field = fieldName(name)
          if (!fieldHeaderName.test(name)) {
            found.push({ row: this.id, construct: `response header name ${name}`, where })
          } else if (hasOwnField(name) && (parsedFields.has(field) || field in Object.prototype)) {
            found.push({
              row: this.id,
              construct: `response header ${name} (its field ${field} is taken)`,
              where,
            })
          }
          const header = resolveRef<Node>(document, rawHeader as Node)
          const type = typeOf(inlined(document, header.schema))
          const first = types.get(name.toLowerCase())
          if (!types.has(name.toLowerCase())) types.set(name.toLowerCase(), type)
          else if (first !== type)
            found.push({
              row: this.id,
              construct: `response header ${name} of type ${JSON.stringify(type ?? 'any')} where another is ${JSON.stringify(first ?? 'any')}`,
              where,
            })
        }
      }
      return found
    },
  },
  {
    id: 'security',
    construct: 'Security',
    supported: 'one HTTP `bearer` scheme, required (the default) or waived with `security: []`',
    handledBy: 'server `auth/`; client (`apiKey` option); docs',
    check(document) {
      const found: Unsupported[] = []
      const schemes = ((document.components as Node | undefined)?.securitySchemes ?? {}) as Node
      for (const [name, raw] of Object.entries(schemes)) {
        const scheme = resolveRef<Node>(document, raw as Node)
        if (scheme.type !== 'http' || String(scheme.scheme).toLowerCase() !== 'bearer') {
          found.push({
            row: this.id,
            construct: `security scheme ${name} (${String(scheme.type)})`,
            where: pointer(['components', 'securitySchemes', name]),
          })
        }
      }
      return found
    },
  },
  {
    id: 'operation',
    construct: 'Operations',
    supported:
      '`get`, `post`, `put`, `patch`, `delete` with an `operationId` (`head` follows `get`; `options` is answered for every path); no `callbacks`, no `webhooks`, no response `links`',
    handledBy:
      'server `http/operations.ts` (a compile error until each has a handler); client; docs',
    check(document) {
      const found: Unsupported[] = []
      for (const { path, method, operation } of operations(document)) {
        const at = ['paths', path, method]
        if (method === 'trace')
          found.push({ row: this.id, construct: 'method trace', where: pointer(at) })
        if (typeof operation.operationId !== 'string')
          found.push({
            row: this.id,
            construct: `${method} ${path} without operationId`,
            where: pointer(at),
          })
        if (operation.callbacks !== undefined)
          found.push({ row: this.id, construct: 'callbacks', where: pointer([...at, 'callbacks']) })
        for (const [status, raw] of Object.entries((operation.responses ?? {}) as Node)) {
          if (isNode(raw) && raw.links !== undefined)
            found.push({
              row: this.id,
              construct: 'response links',
              where: pointer([...at, 'responses', status, 'links']),
            })
          if (!/^[1-5](\d\d|XX)$/.test(status) && !isErrorStatus(status))
            found.push({
              row: this.id,
              construct: `response status ${status}`,
              where: pointer([...at, 'responses', status]),
            })
        }
      }
      if (document.webhooks !== undefined)
        found.push({ row: this.id, construct: 'webhooks', where: pointer(['webhooks']) })
      return found
    },
  },
  {
    id: 'filter',
    construct: 'Listing filters (server code, not the spec)',
    supported: `a query parameter of a paginated listing, matched by ${filterMatchers.map((m) => `\`${m}\``).join(' or ')} against a scalar property or a nested one (\`medical.vaccinated\`), with an index per \`equals\` filter`,
    handledBy:
      'server `store/resources.ts` (a compile error until each filter has its rule), both stores',
  },
]

/** The single type of a schema (`["string", "null"]` has none), or undefined. */
function typeOf(schema: Node): string | undefined {
  if (typeof schema.type === 'string') return schema.type
  if (schema.type === undefined && Array.isArray(schema.enum)) {
    const types = new Set(schema.enum.map((value) => typeof value))
    return types.size === 1 ? [...types][0] : undefined
  }
  return undefined
}

function parameterFindings(
  document: Node,
  check: (parameter: Node, at: string) => Unsupported[],
): Unsupported[] {
  const found: Unsupported[] = []
  for (const { path, method, parameters } of operations(document)) {
    const at = pointer(['paths', path, method])
    for (const parameter of parameters) found.push(...check(parameter, at))
  }
  return found
}

/** Every use of a construct outside the table, in `document` (the canonical spec or its bundle). */
export function unsupported(document: Node): Unsupported[] {
  return supportTable.flatMap((row) => row.check?.call(row, document) ?? [])
}

/** One line per finding, as `pnpm generate` and `pnpm lint` print it. */
export function describeUnsupported(finding: Unsupported): string {
  return `${finding.where}: ${finding.construct} is not supported (support table row "${finding.row}", spec/SUPPORT.md)`
}
