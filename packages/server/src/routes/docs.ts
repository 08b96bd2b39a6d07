/**
 * The rendered docs (built by @petstore/docs) as static files under `/docs`. Paths are resolved
 * inside the docs directory only; a missing build is a clear 404 Error, not a crash. Each file
 * is read once and shared by every answer (http/cached-files.ts), validated by `ETag` and
 * `Last-Modified` (`304` on a match), compressed with brotli or gzip when the client accepts
 * it, and every request counts against the client IP's limit, as `/v1/openapi.json` does.
 */
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { problem } from '../errors.js'
import { createFileCache, notModified, preferredCoding } from '../http/cached-files.js'
import { callbackHook, type HookStep } from '../http/callback-hooks.js'
import { fileInside } from '../http/static-files.js'
import { docsPath } from '../urls.js'

/**
 * @param limit counts the request against the client's IP and throws the 429 when limited
 */
export function registerDocsRoutes(app: FastifyInstance, docsDir: string, limit: HookStep): void {
  const files = createFileCache()
  const serve = async (relative: string, request: FastifyRequest, reply: FastifyReply) => {
    const file = fileInside(docsDir, relative)
    if (file === undefined) throw problem('noSuchDocsFile', { file: relative })
    // A directory means its index.html; a file is never served under a name ending in `/`.
    const asDirectory = await files.get(join(file, 'index.html'))
    const found = asDirectory ?? (relative.endsWith('/') ? undefined : await files.get(file))
    if (found === undefined) {
      throw relative === 'index.html'
        ? problem('docsNotBuilt')
        : problem('noSuchDocsFile', { file: relative })
    }
    const sent = await found.representation(
      found.compressible ? preferredCoding(request.headers['accept-encoding']) : undefined,
    )
    reply.type(found.type)
    reply.header('etag', sent.etag)
    reply.header('last-modified', found.lastModified)
    // Kept by browsers, and asked again each time: an unchanged file costs a 304.
    reply.header('cache-control', 'no-cache')
    if (found.compressible) reply.header('vary', 'accept-encoding')
    if (notModified(request.headers, sent.etag, found.lastModified)) {
      return reply.code(304).send()
    }
    if (sent.encoding !== undefined) reply.header('content-encoding', sent.encoding)
    return reply.send(sent.body)
  }
  const onRequest = callbackHook((request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    return limit(request, reply)
  })
  app.get(docsPath, { onRequest }, async (request, reply) => serve('index.html', request, reply))
  app.get(`${docsPath}/`, { onRequest }, async (request, reply) =>
    serve('index.html', request, reply),
  )
  app.get(`${docsPath}/*`, { onRequest }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*']
    return serve(rest === '' ? 'index.html' : rest, request, reply)
  })
}
