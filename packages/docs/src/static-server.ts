/**
 * A small static file server for a built docs folder: what any static host does, so that
 * `pnpm docs:preview` and the tests check the site exactly as it would be deployed.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { contentTypeOf, fileInside } from '@petstore/server'

export interface StaticServerOptions {
  /** The folder to serve. */
  root: string
  /** The URL path the folder is mounted at, e.g. `/docs/`; `/` by default. */
  basePath?: string
}

function send(response: import('node:http').ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' })
  response.end(text)
}

/**
 * Resolves a request path to a file under `root`, or `undefined` when it would leave it.
 * A directory means its `index.html`.
 */
export function fileFor(root: string, basePath: string, urlPath: string): string | undefined {
  if (!urlPath.startsWith(basePath)) return undefined
  let relative: string
  try {
    relative = decodeURIComponent(urlPath.slice(basePath.length))
  } catch {
    return undefined
  }
  const file = fileInside(root, relative)
  if (file === undefined) return undefined
  return relative === '' || relative.endsWith('/') ? join(file, 'index.html') : file
}

/**
 * A `node:http` server for the folder. GET and HEAD only; `basePath` without its trailing slash
 * redirects to it, as static hosts do.
 *
 * @example
 * ```ts
 * const server = createStaticServer({ root: 'dist' })
 * server.listen(4173, '127.0.0.1')
 * ```
 */
export function createStaticServer({ root, basePath = '/' }: StaticServerOptions): Server {
  const mount = basePath.endsWith('/') ? basePath : `${basePath}/`
  return createServer((request, response) => {
    void (async () => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.setHeader('Allow', 'GET, HEAD')
        return send(response, 405, 'method not allowed')
      }
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (`${url.pathname}/` === mount) {
        response.writeHead(301, { Location: `${mount}${url.search}` })
        return response.end()
      }
      const file = fileFor(root, mount, url.pathname)
      const info = file ? await stat(file).catch(() => undefined) : undefined
      if (info?.isDirectory() && file) {
        response.writeHead(301, { Location: `${url.pathname}/${url.search}` })
        return response.end()
      }
      if (!file || !info?.isFile()) return send(response, 404, 'not found')
      response.writeHead(200, {
        'Content-Type': contentTypeOf(file),
        'Content-Length': info.size,
        'X-Content-Type-Options': 'nosniff',
      })
      if (request.method === 'HEAD') return response.end()
      createReadStream(file).pipe(response)
    })().catch(() => {
      if (!response.headersSent) send(response, 500, 'internal error')
      else response.destroy()
    })
  })
}
