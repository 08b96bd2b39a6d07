/**
 * What serving a folder of built files needs, shared by the server's `/docs` route and the docs
 * package's preview server: the content type of each file the docs build writes, and the guard
 * that keeps a request path inside the folder.
 */
import { extname, normalize, resolve, sep } from 'node:path'

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
  '.atom': 'application/atom+xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/** The `Content-Type` of a file by its extension; `application/octet-stream` if unknown. */
export function contentTypeOf(file: string): string {
  return contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * The absolute path of `relative` (already URL-decoded) inside `root`, or `undefined` when it
 * would leave `root` or holds a NUL byte.
 *
 * @example
 * ```ts
 * fileInside('/srv/docs', 'index.html') // '/srv/docs/index.html'
 * fileInside('/srv/docs', '../etc/passwd') // undefined
 * ```
 */
export function fileInside(root: string, relative: string): string | undefined {
  if (relative.includes('\0')) return undefined
  const base = resolve(root)
  const file = resolve(base, normalize(relative))
  return file === base || file.startsWith(base + sep) ? file : undefined
}
