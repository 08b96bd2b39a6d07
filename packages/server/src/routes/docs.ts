/**
 * The rendered docs (built by @petstore/docs) as static files under `/docs`. Paths are resolved
 * inside the docs directory only; a missing build is a clear 404 Error, not a crash.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { problem } from '../errors.js'
import { contentTypeOf, fileInside } from '../http/static-files.js'
import { docsPath } from '../urls.js'

export function registerDocsRoutes(app: FastifyInstance, docsDir: string): void {
  const serve = async (relative: string, reply: FastifyReply) => {
    const file = fileInside(docsDir, relative)
    if (file === undefined) throw problem('noSuchDocsFile', { file: relative })
    const found = await stat(file).catch(() => undefined)
    const target = found?.isDirectory() ? join(file, 'index.html') : file
    const body = await readFile(target).catch(() => undefined)
    if (body === undefined) {
      throw relative === 'index.html'
        ? problem('docsNotBuilt')
        : problem('noSuchDocsFile', { file: relative })
    }
    reply.type(contentTypeOf(target))
    reply.header('x-content-type-options', 'nosniff')
    return reply.send(body)
  }
  app.get(docsPath, async (_request, reply) => serve('index.html', reply))
  app.get(`${docsPath}/`, async (_request, reply) => serve('index.html', reply))
  app.get(`${docsPath}/*`, async (request, reply) => {
    const rest = (request.params as { '*': string })['*']
    return serve(rest === '' ? 'index.html' : rest, reply)
  })
}
