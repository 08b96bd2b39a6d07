/**
 * `http_server_request_duration_seconds` and `http_server_active_requests` for every answer:
 * those Fastify gives (an `onResponse` hook) and those given below the routes (`answeredBelow`,
 * called by http/edge.ts: the router's refusals and Node's parser's raw 400/408/413/431). Labels
 * stay bounded whatever is sent: the route is the matched route's template (`/v1/pets/{petId}`,
 * the spec's own path with the base path) or empty when none matched, and a method outside the
 * HTTP standard's list is `_OTHER`, as the semantic conventions say.
 *
 * @see https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-server-span
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Completion } from '../http/completion-log.js'
import { refusedRouteOf } from '../http/methods.js'
import { specPathOf } from '../spec/operations.js'
import type { Series } from './histogram.js'
import type { Instruments } from './instruments.js'

const knownMethods = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
])

export function methodLabel(method: string): string {
  return knownMethods.has(method) ? method : '_OTHER'
}

/** A Fastify route path (`/v1/pets/:petId`) as the spec writes it (`/v1/pets/{petId}`). */
export function routeLabel(url: string | undefined): string {
  return url === undefined ? '' : specPathOf(url)
}

export interface ObservedRequests {
  /** Requests received and not answered yet. */
  active(): number
  /** Observes an answer edge.ts writes itself (no route matched those). */
  answeredBelow(completion: Completion): void
}

/**
 * The series of each (route, status, method), found by three map lookups on values the request
 * already has: building a label object per request cost more than the observation.
 */
function seriesLookup(requestDuration: Instruments['requestDuration']) {
  const byRoute = new Map<string | undefined, Map<number, Map<string, Series>>>()
  return (url: string | undefined, statusCode: number, method: string): Series => {
    let byStatus = byRoute.get(url)
    if (byStatus === undefined) {
      byStatus = new Map()
      byRoute.set(url, byStatus)
    }
    let byMethod = byStatus.get(statusCode)
    if (byMethod === undefined) {
      byMethod = new Map()
      byStatus.set(statusCode, byMethod)
    }
    const known = byMethod.get(method)
    if (known !== undefined) return known
    const series = requestDuration.series({
      http_request_method: methodLabel(method),
      http_route: routeLabel(url),
      http_response_status_code: String(statusCode),
    })
    byMethod.set(method, series)
    return series
  }
}

/** Observes every answer of `app` and counts its requests in flight. */
export function observeRequests(
  app: FastifyInstance,
  requestDuration: Instruments['requestDuration'],
): ObservedRequests {
  const seriesOf = seriesLookup(requestDuration)
  const active = activeRequestCount(app.server)
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? refusedRouteOf(request)
    seriesOf(route, reply.statusCode, request.method).observe(reply.elapsedTime / 1000)
    done()
  })
  return {
    active: () => active.count,
    answeredBelow(completion) {
      // The method of a raw answer is whatever the request line said: keyed by its label.
      seriesOf(undefined, completion.statusCode, methodLabel(completion.method)).observe(
        completion.ms / 1000,
      )
    },
  }
}

/** What a connection still has counted: its requests not answered yet, until it closes. */
interface ConnectionCount {
  pending: number
  closed: boolean
}

/**
 * Requests received and not answered yet, counted per request lifetime: a request ends when its
 * response closes or when its connection does, whichever comes first. A response queued behind
 * a pipelined one whose connection was destroyed never closes (Node drops it silently), so the
 * connection's close ends every request it still had.
 */
function activeRequestCount(server: Server): { readonly count: number } {
  const connections = new WeakMap<Socket, ConnectionCount>()
  let count = 0
  // One function each for every response and connection: no closure per request.
  function onResponseClose(this: ServerResponse) {
    const connection = connections.get(this.req.socket)
    if (connection === undefined || connection.closed) return
    connection.pending--
    count--
  }
  function onConnectionClose(this: Socket) {
    const connection = connections.get(this)
    if (connection === undefined) return
    connection.closed = true
    count -= connection.pending
    connection.pending = 0
  }
  // Every request the HTTP server hands over, whether or not a route takes it.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    let connection = connections.get(socket)
    if (connection === undefined) {
      connection = { pending: 0, closed: socket.destroyed }
      connections.set(socket, connection)
      if (!connection.closed) socket.once('close', onConnectionClose)
    }
    if (connection.closed) return
    connection.pending++
    count++
    response.once('close', onResponseClose)
  })
  return {
    get count() {
      return count
    },
  }
}
