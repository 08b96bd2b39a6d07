/**
 * The /v1 scope. Every request passes, in order: security and CORS headers and the
 * operation's deprecation headers (so errors carry them too) -> caller identification ->
 * rate limiting -> 401 for an operation without a valid key -> validation -> handler.
 * OPTIONS answers before identification: no key, no limits.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { createCallerIdentifier } from '../auth/authenticate.js'
import { unauthorized } from '../auth/authenticate.js'
import { ApiProblem } from '../errors.js'
import type { CorsPolicy } from '../http/cors.js'
import type { RateLimitHook } from '../rate-limit/hook.js'
import type { DeprecationLinks } from '../spec/deprecation.js'
import type { OperationSpec } from '../spec/operations.js'
import {
  allowedMethods,
  type OperationRoute,
  type RouteConfig,
  registerOperations,
} from '../spec/routes.js'

export interface V1ScopeOptions {
  operations: readonly OperationSpec[]
  routes: Readonly<Record<string, OperationRoute>>
  links: DeprecationLinks
  cors: CorsPolicy
  identifyCaller: ReturnType<typeof createCallerIdentifier>
  rateLimit: RateLimitHook
  /** The bundled spec, already serialized. */
  specJson: string
}

const v1Headers = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }

export async function v1Scope(scope: FastifyInstance, options: V1ScopeOptions): Promise<void> {
  const { cors, identifyCaller, rateLimit } = options
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(v1Headers)
    cors.apply(request, reply)
    const config = request.routeOptions.config as RouteConfig
    if (config.deprecation !== undefined) reply.headers(config.deprecation)
    if (config.options !== undefined) return
    const caller = await identifyCaller(request)
    request.caller = caller
    await rateLimit(request, reply, caller)
    if (config.auth === 'required' && caller.kind !== 'key') throw unauthorized(request)
  })

  const getOpenApiDocument: OperationRoute = {
    handler: async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(options.specJson),
  }
  registerOperations(
    scope,
    options.operations,
    { ...options.routes, getOpenApiDocument },
    options.links,
  )

  const allow = allowedMethods(options.operations)
  for (const [path, methods] of allow) {
    const config: RouteConfig = { options: { allow: methods } }
    scope.options(path, { config }, async (request, reply) => {
      reply.header('allow', methods)
      cors.preflight(request, reply, methods)
      return reply.code(204).send()
    })
  }

  const templates = [...allow].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`),
    methods,
  }))
  scope.setNotFoundHandler(async (request, reply) => {
    const fullPath = request.url.split('?', 1)[0] ?? ''
    const path = fullPath.slice(options.links.basePath.length)
    const match = templates.find((template) => template.pattern.test(path))
    if (match !== undefined) {
      reply.header('allow', match.methods)
      throw new ApiProblem(
        'method_not_allowed',
        `method ${request.method} is not allowed on ${fullPath}; use ${match.methods}`,
      )
    }
    throw new ApiProblem('not_found', `no such path: ${fullPath}`)
  })
}
