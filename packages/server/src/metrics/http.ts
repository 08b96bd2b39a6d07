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
import type { FastifyInstance } from 'fastify'
import type { Completion } from '../http/completion-log.js'
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

const routeLabels = new Map<string, string>()

/** A Fastify route path (`/v1/pets/:petId`) as the spec writes it (`/v1/pets/{petId}`). */
export function routeLabel(url: string | undefined): string {
  if (url === undefined) return ''
  let label = routeLabels.get(url)
  if (label === undefined) {
    label = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    routeLabels.set(url, label)
  }
  return label
}

export interface ObservedRequests {
  /** Requests received and not answered yet. */
  active(): number
  /** Observes an answer edge.ts writes itself (no route matched those). */
  answeredBelow(completion: Completion): void
}

/** Observes every answer of `app` and counts its requests in flight. */
export function observeRequests(
  app: FastifyInstance,
  requestDuration: Instruments['requestDuration'],
): ObservedRequests {
  let started = 0
  let finished = 0
  // Every request the HTTP server hands over, whether or not a route takes it.
  app.server.prependListener('request', (_request, response) => {
    started++
    response.once('close', () => {
      finished++
    })
  })
  app.addHook('onResponse', (request, reply, done) => {
    requestDuration.observe(
      {
        http_request_method: methodLabel(request.method),
        http_route: routeLabel(request.routeOptions.url),
        http_response_status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    )
    done()
  })
  return {
    active: () => started - finished,
    answeredBelow(completion) {
      requestDuration.observe(
        {
          http_request_method: methodLabel(completion.method),
          http_route: '',
          http_response_status_code: completion.statusCode,
        },
        completion.ms / 1000,
      )
    },
  }
}
