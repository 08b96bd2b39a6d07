/**
 * What /v1 answers for methods its operations do not handle: OPTIONS on every spec path (with
 * `Allow` and the CORS preflight), 405 with `Allow` for another method on a known path, and 404
 * for an unknown path.
 */
import type { FastifyInstance } from 'fastify'
import { problem } from '../errors.js'
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
    const path = fullPath.slice(basePath.length)
    const match = templates.find((template) => template.pattern.test(path))
    if (match !== undefined) {
      reply.header('allow', match.methods)
      throw problem('methodNotAllowed', {
        method: request.method,
        path: fullPath,
        allow: match.methods,
      })
    }
    throw problem('noSuchPath', { path: fullPath })
  })
}
