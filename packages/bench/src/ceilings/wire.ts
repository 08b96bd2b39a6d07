/**
 * The wire ceiling: a bare node:http server that answers each request it knows with constant,
 * pre-serialized bytes (status, headers and body captured once from the service). No framework,
 * no auth, no database: what loopback HTTP costs on this machine, and so the most any server
 * answering the same path with the same bytes could do.
 */
import { createServer, type Server } from 'node:http'

/** A response as captured from the service, replayed byte for byte. */
export interface CannedResponse {
  status: number
  /** Lowercase names; hop-by-hop fields and `content-length` are set by the ceiling. */
  headers: Readonly<Record<string, string>>
  body: string
}

/** Canned responses keyed by `METHOD url`, e.g. `GET /v1/pets?limit=20`. */
export type CannedRoutes = Readonly<Record<string, CannedResponse>>

interface Prepared {
  status: number
  /** Flat `[name, value, name, value, ...]`: the cheapest form `writeHead` accepts. */
  headers: string[]
  body: Buffer
}

/** Set by node:http itself, or not constant. */
const managedHeaders = new Set([
  'connection',
  'content-length',
  'date',
  'keep-alive',
  'transfer-encoding',
])

const unknownRoute: Prepared = prepare({
  status: 404,
  headers: { 'content-type': 'text/plain' },
  body: 'the wire ceiling knows no such route\n',
})

/** The key a route is stored under. */
export function routeKey(method: string, url: string): string {
  return `${method} ${url}`
}

/**
 * @example
 * ```ts
 * const server = createWireCeiling({
 *   'GET /v1/pets?limit=20': { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
 * })
 * server.listen(0, '127.0.0.1')
 * ```
 */
export function createWireCeiling(routes: CannedRoutes): Server {
  const table = new Map<string, Prepared>()
  for (const [key, response] of Object.entries(routes)) table.set(key, prepare(response))
  return createServer((request, response) => {
    const canned = table.get(routeKey(request.method ?? 'GET', request.url ?? '/')) ?? unknownRoute
    // An unread request body is drained by node:http once the response is sent.
    response.writeHead(canned.status, canned.headers)
    response.end(canned.body)
  })
}

function prepare(response: CannedResponse): Prepared {
  const body = Buffer.from(response.body)
  const headers: string[] = []
  for (const [name, value] of Object.entries(response.headers)) {
    if (!managedHeaders.has(name.toLowerCase())) headers.push(name, value)
  }
  headers.push('content-length', String(body.length))
  return { status: response.status, headers, body }
}
