/**
 * CORS for /v1. Keys are bearer tokens, never cookies, so any allowed origin gets the same
 * answer and credentials are never allowed. Header values are computed once, from the spec.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
import { operationsOf, resolveRef } from '@petstore/types/openapi'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { HeaderSink } from '../rate-limit/headers.js'

type Node = Record<string, unknown>

/** Response headers every script may read without being told (Fetch's safelist). */
export const safelisted: ReadonlySet<string> = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
])

/** `names` without repeats (by lower case), in alphabetical order, as one header value. */
function headerList(names: Iterable<string>): string {
  const byLower = new Map<string, string>()
  for (const name of names)
    if (!byLower.has(name.toLowerCase())) byLower.set(name.toLowerCase(), name)
  return [...byLower.values()].sort((a, b) => a.localeCompare(b)).join(', ')
}

/**
 * The response headers a browser script may read: every header the document declares on a
 * response, but the safelisted ones, those of the CORS protocol itself and those marked
 * `x-cors-exposed: false` (meant for the browser: `Vary`, `WWW-Authenticate`...). A header the
 * spec adds is exposed with no code edit, and its addition is a non-breaking change.
 */
export function exposedHeaders(document: unknown): string {
  const names: string[] = []
  for (const { operation } of operationsOf(document)) {
    for (const raw of Object.values((operation.responses ?? {}) as Node)) {
      const response = resolveRef<Node>(document, raw as Node)
      for (const [name, declared] of Object.entries((response.headers ?? {}) as Node)) {
        const header = resolveRef<Node>(document, declared as Node)
        const lower = name.toLowerCase()
        if (header['x-cors-exposed'] === false || safelisted.has(lower)) continue
        if (!lower.startsWith('access-control-')) names.push(name)
      }
    }
  }
  return headerList(names)
}

/**
 * The request headers a browser may send: `Authorization` (the key), `Content-Type` (a JSON body
 * is not a simple request) and every header parameter the document declares.
 */
export function allowedRequestHeaders(document: unknown): string {
  const names = ['Authorization', 'Content-Type']
  for (const { parameters } of operationsOf(document)) {
    for (const parameter of parameters)
      if (parameter.in === 'header') names.push(String(parameter.name))
  }
  return headerList(names)
}

export interface CorsPolicy {
  /** Adds the CORS response headers when the request's Origin is allowed. */
  apply(request: Pick<FastifyRequest, 'headers'>, reply: HeaderSink): void
  /** Adds the preflight headers for a path that supports `methods`. */
  preflight(request: FastifyRequest, reply: FastifyReply, methods: string): void
}

/**
 * `origins` is `*` or the exact origins allowed (e.g. `https://app.example`); the header lists
 * come from `document`, the spec the service serves.
 */
export function createCorsPolicy(origins: '*' | readonly string[], document: unknown): CorsPolicy {
  const allowed = origins === '*' ? undefined : new Set(origins)
  const exposed = exposedHeaders(document)
  const requestHeaders = allowedRequestHeaders(document)
  const allowOrigin = (origin: string | undefined): string | undefined => {
    if (origin === undefined) return undefined
    if (allowed === undefined) return '*'
    return allowed.has(origin) ? origin : undefined
  }
  return {
    apply(request, reply) {
      if (allowed !== undefined) reply.header('vary', 'Origin')
      const origin = allowOrigin(request.headers.origin)
      if (origin === undefined) return
      reply.header('access-control-allow-origin', origin)
      reply.header('access-control-expose-headers', exposed)
    },
    preflight(request, reply, methods) {
      if (allowOrigin(request.headers.origin) === undefined) return
      if (request.headers['access-control-request-method'] === undefined) return
      reply.header('access-control-allow-methods', methods)
      reply.header('access-control-allow-headers', requestHeaders)
      reply.header('access-control-max-age', '600')
    },
  }
}
