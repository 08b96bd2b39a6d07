/**
 * The rendered docs (built by @petstore/docs) as static files under `/docs`. Paths are resolved
 * inside the docs directory only; a missing build is a clear 404 Error, not a crash.
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { problem } from '../errors.js'

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

export function registerDocsRoutes(app: FastifyInstance, docsDir: string): void {
  const root = resolve(docsDir)
  const serve = async (relative: string, reply: FastifyReply) => {
    const file = resolve(root, normalize(relative))
    if (file !== root && !file.startsWith(root + sep))
      throw problem('noSuchDocsFile', { file: relative })
    const found = await stat(file).catch(() => undefined)
    const target = found?.isDirectory() ? join(file, 'index.html') : file
    const body = await readFile(target).catch(() => undefined)
    if (body === undefined) {
      throw relative === 'index.html'
        ? problem('docsNotBuilt')
        : problem('noSuchDocsFile', { file: relative })
    }
    reply.type(contentTypes[extname(target)] ?? 'application/octet-stream')
    reply.header('x-content-type-options', 'nosniff')
    return reply.send(body)
  }
  app.get('/docs', async (_request, reply) => serve('index.html', reply))
  app.get('/docs/', async (_request, reply) => serve('index.html', reply))
  app.get('/docs/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*']
    return serve(rest === '' ? 'index.html' : rest, reply)
  })
}
