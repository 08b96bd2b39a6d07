/**
 * Registers one Fastify route per spec operation: request schemas for validation, response
 * schemas for serialization, and the operation's id and precomputed deprecation headers in the
 * route config, where the generic /v1 hooks read them. Each handler's result (contract.ts) is
 * written to the reply here, the one place that does.
 */
import { answeredMethods } from '@petstore/types/openapi'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify'
import { ApiProblem } from '../errors.js'
import { isPromise, type MaybePromise } from '../maybe-promise.js'
import { type DeprecationLinks, deprecationHeaders } from '../spec/deprecation.js'
import type { JsonSchema } from '../spec/document.js'
import { type OperationSpec, type ParameterSpec, requestBodySchema } from '../spec/operations.js'
import { type OperationRoute, type OperationRoutes, PreSerialized } from './contract.js'
import { acceptMediaTypes } from './media-types.js'
import { checkRequiredHeaders, type ResponseCheck } from './response-headers.js'

/** What the /v1 hooks learn about the route a request matched. */
export interface RouteConfig {
  operationId?: string
  /** `required`: 401 without a valid key; `none`: public (still rate limited per IP). */
  auth?: 'required' | 'none'
  /** Set on the OPTIONS routes: no auth, no limits. */
  options?: { allow: string }
  /** Deprecation, Sunset and Link values for a deprecated operation. */
  deprecation?: Readonly<Record<string, string>>
  /** Set when the route declares no request body: the name a refused body's message gives. */
  noBody?: string
}

export function registerOperations(
  scope: FastifyInstance,
  operations: readonly OperationSpec[],
  routes: OperationRoutes,
  links: DeprecationLinks,
  responseCheck: ResponseCheck,
): void {
  // Past the types, at the one seam where a request meets its handler: each route's types were
  // checked against its operation where the table was written.
  const byId = routes as unknown as Partial<Record<string, BoundRoute>>
  for (const operation of operations) {
    // The type of `routes` names every operation of the generated types; a document passed at
    // run time (AppDeps.document) may still name one they do not know.
    const route = byId[operation.operationId]
    if (route === undefined) throw new Error(`no handler for operation ${operation.operationId}`)
    const config: RouteConfig = {
      operationId: operation.operationId,
      auth: operation.public ? 'none' : 'required',
      deprecation: deprecationHeaders(operation, operations, links),
    }
    if (!operation.requestBody) config.noBody = operation.operationId
    const options: RouteOptions = {
      method: operation.method,
      url: operation.routePath,
      schema: routeSchema(operation),
      config,
      handler: bindHandler(route),
      onSend: checkRequiredHeaders(operation, responseCheck),
    }
    if (route.onRequest) options.onRequest = route.onRequest
    if (operation.requestBody) {
      options.preParsing = acceptMediaTypes(Object.keys(operation.requestBody.content))
    }
    scope.route(options)
  }
}

const jsonType = 'application/json; charset=utf-8'

/** Any operation's route, its types erased. */
interface BoundRoute extends Omit<OperationRoute<never>, 'handler'> {
  handler: (request: FastifyRequest, reply: FastifyReply) => MaybePromise<HandlerResult>
}
type HandlerResult = ApiProblem | { status: number; body: unknown; headers?: object }

/**
 * A result at hand is sent now and the route returns nothing: Fastify sends a returned value
 * itself, and would find this reply already sent. A promise is returned for Fastify to wait on.
 */
function bindHandler(route: BoundRoute): RouteHandlerMethod {
  const { handler } = route
  return (request, reply) => {
    const result = handler(request, reply)
    if (isPromise(result)) return result.then((settled) => send(reply, settled))
    send(reply, result)
    return undefined
  }
}

function send(reply: FastifyReply, result: HandlerResult): FastifyReply {
  if (result instanceof ApiProblem) throw result
  reply.code(result.status)
  if (result.headers !== undefined) reply.headers(result.headers as Record<string, string>)
  const { body } = result
  // A string with a JSON content type is sent as it is, past the response schema's serializer.
  if (body instanceof PreSerialized) return reply.type(jsonType).send(body.json)
  return reply.send(body)
}

function routeSchema(operation: OperationSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = {}
  const query = parametersSchema(operation.parameters.filter((p) => p.in === 'query'))
  const path = parametersSchema(operation.parameters.filter((p) => p.in === 'path'))
  const headers = parametersSchema(
    operation.parameters.filter((p) => p.in === 'header' && constrains(p.schema)),
  )
  if (query) schema.querystring = query
  if (path) schema.params = path
  if (headers) schema.headers = headers
  const body = requestBodySchema(operation)
  if (body !== undefined) schema.body = body
  const response: Record<string, JsonSchema> = {}
  for (const [status, spec] of Object.entries(operation.responses)) {
    if (spec.schema) response[status] = spec.schema
  }
  schema.response = response
  return schema
}

/** Keywords that say what a value is about, not what it may be. */
const annotations = new Set(['type', 'description', 'examples', 'example', 'title', 'deprecated'])

/**
 * Whether a header parameter's schema refuses any value: a header declared as any string
 * (`X-Request-Id`, whose odd values are replaced, never refused) is left unread, so the requests
 * that send only such headers pay nothing for them.
 */
function constrains(schema: JsonSchema): boolean {
  return schema.type !== 'string' || Object.keys(schema).some((key) => !annotations.has(key))
}

function parametersSchema(parameters: readonly ParameterSpec[]): JsonSchema | undefined {
  if (parameters.length === 0) return undefined
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  }
}

/** Allowed methods per spec path (HEAD wherever GET, OPTIONS everywhere), e.g. `GET, HEAD, POST, OPTIONS`. */
export function allowedMethods(operations: readonly OperationSpec[]): Map<string, string> {
  const byPath = new Map<string, Set<string>>()
  for (const operation of operations) {
    const methods = byPath.get(operation.routePath) ?? new Set<string>()
    for (const method of answeredMethods(operation.method)) methods.add(method)
    byPath.set(operation.routePath, methods)
  }
  return new Map([...byPath].map(([path, methods]) => [path, [...methods, 'OPTIONS'].join(', ')]))
}
