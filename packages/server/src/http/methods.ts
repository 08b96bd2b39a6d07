/**
 * What /v1 answers for methods its operations do not handle: OPTIONS on every spec path (with
 * `Allow` and the CORS preflight), 405 with `Allow` for another method on a known path, and 404
 * for an unknown path. Outside /v1 (health, docs) another method on a routed path is 405 with
 * `Allow` too (`methodsOutsideV1`). Both answer by method and path alone (`answerUnrouted`).
 */
import { answeredMethods } from '@petstore/types/openapi'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { type ApiProblem, problem } from '../errors.js'
import type { OperationSpec } from '../spec/operations.js'
import type { CorsPolicy } from './cors.js'
import { allowedMethods, type RouteConfig } from './operations.js'

export function answerOtherMethods(
  scope: FastifyInstance,
  operations: readonly OperationSpec[],
  cors: CorsPolicy,
  basePath: string,
): void {
  const allow = allowedMethods(operations)
  for (const [path, methods] of allow) {
    const config: RouteConfig = { options: { allow: methods }, noBody: `OPTIONS ${path}` }
    scope.options(path, { config }, async (request, reply) => {
      reply.header('allow', methods)
      cors.preflight(request, reply, methods)
      return reply.code(204).send()
    })
  }

  const templates = [...allow].map(([path, methods]) => ({
    route: `${basePath}${path}`,
    pattern: routePattern(path),
    methods,
  }))
  answerUnrouted(scope, (request) => {
    const fullPath = pathOf(request)
    const path = fullPath.slice(basePath.length)
    const match = templates.find((template) => template.pattern.test(path))
    return match === undefined
      ? problem('noSuchPath', { path: fullPath })
      : notAllowed(request, match.methods, match.route)
  })
}

/**
 * Makes `decide` the answer to every request that reaches `scope`'s own not-found handler,
 * given once the scope's `onRequest` hooks have run (so the request is counted and carries the
 * scope's headers) and before its body is read: the method and the path alone decide. Fastify
 * would otherwise judge the body first, so that a QUERY without `Content-Type` (which it refuses
 * with 400, RFC 10008 §2), a body over the limit or malformed JSON hid the 405 or the 404.
 */
export function answerUnrouted(
  scope: FastifyInstance,
  decide: (request: FastifyRequest) => ApiProblem,
): void {
  // Set in a child context: Fastify gives a not-found handler the hooks of the context that
  // sets it, so this hook sees the scope's unrouted requests only, not every routed one.
  scope.register(async (unrouted) => {
    unrouted.addHook('preParsing', (request, _reply, _payload, done) => done(decide(request)))
    unrouted.setNotFoundHandler(async (request) => {
      throw decide(request)
    })
  })
}

/**
 * The 405 of a path routed outside /v1 for another method, or undefined: registered before
 * those routes, it learns them as they are added (`onRoute`). HEAD follows GET.
 */
export function methodsOutsideV1(
  app: FastifyInstance,
): (request: FastifyRequest) => ApiProblem | undefined {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>()
  app.addHook('onRoute', ({ url, method }) => {
    const entry = routes.get(url) ?? { pattern: routePattern(url), methods: new Set<string>() }
    for (const name of [method].flat().flatMap(answeredMethods)) entry.methods.add(name)
    routes.set(url, entry)
  })
  return (request) => {
    const path = pathOf(request)
    const methods = new Set<string>()
    let matched: string | undefined
    for (const [url, route] of routes) {
      if (!route.pattern.test(path)) continue
      matched ??= url
      for (const name of route.methods) methods.add(name)
    }
    return matched === undefined ? undefined : notAllowed(request, [...methods].join(', '), matched)
  }
}

/**
 * A route path (`/pets/:petId`, `/docs/*`) as a pattern matching the paths it serves (without
 * the query): each `:name` one segment, a trailing `*` anything.
 */
export function routePattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${escaped.replace(/:[^/]+/g, '[^/]+').replace(/\*$/, '.*')}$`)
}

const pathOf = (request: FastifyRequest) => request.url.split('?', 1)[0] ?? ''

/** The route whose path a request refused `405` matched (its method did not), by request. */
const refusedRoutes = new WeakMap<FastifyRequest, string>()

/**
 * The route path (`/v1/pets/:petId`) a `405` was answered for, so that metrics label it with
 * its route like any answer of that path; undefined for any other request.
 */
export function refusedRouteOf(request: FastifyRequest): string | undefined {
  return refusedRoutes.get(request)
}

function notAllowed(request: FastifyRequest, allow: string, route: string): ApiProblem {
  refusedRoutes.set(request, route)
  return problem('methodNotAllowed', {
    method: request.method,
    path: pathOf(request),
    allow,
  }).withHeaders({ allow })
}
