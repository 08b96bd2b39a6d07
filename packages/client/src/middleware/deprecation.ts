import type { Middleware } from 'openapi-fetch'
import { parseDeprecation, parseHttpDate } from '../http/deprecation-headers.js'
import { findLink } from '../http/link.js'

/** A deprecated operation, as its response announced it. */
export interface DeprecationNotice {
  /** The `operationId` when known, else `METHOD path`. */
  operation: string
  method: string
  /** The path as written in the spec, e.g. `/pets/{petId}`. */
  path: string
  /** When the operation was deprecated (`Deprecation`). */
  deprecatedAt: Date | undefined
  /** When it will be removed (`Sunset`). */
  sunset: Date | undefined
  /** The replacement's URL (`Link rel="successor-version"`). */
  successor: string | undefined
  /** Where the deprecation is documented (`Link rel="deprecation"`). */
  documentation: string | undefined
}

export interface DeprecationOptions {
  /** Called once per operation; default: one warning (`process.emitWarning` or `console.warn`). */
  onDeprecation?: (notice: DeprecationNotice) => void
  /** `operationId` by `METHOD path`, to name operations in notices. */
  operationIds?: Readonly<Record<string, string>>
}

type EmitWarning = (message: string, options: { type: string; code: string }) => void

const day = (date: Date) => date.toISOString().slice(0, 10)

/** The one-line warning for a notice. */
export function formatDeprecation(notice: DeprecationNotice): string {
  const since = notice.deprecatedAt ? ` since ${day(notice.deprecatedAt)}` : ''
  const removal = notice.sunset ? ` and will be removed on ${day(notice.sunset)}` : ''
  const successor = notice.successor ? `; use ${notice.successor} instead` : ''
  const docs = notice.documentation ? ` (see ${notice.documentation})` : ''
  return `${notice.operation} (${notice.method} ${notice.path}) is deprecated${since}${removal}${successor}${docs}`
}

/**
 * Warns the way the runtime expects: `process.emitWarning` in Node (silenced by
 * `--no-deprecation`), `console.warn` in browsers. Found on `globalThis` so no Node module is
 * imported. The default `onDeprecation`.
 *
 * @example
 * ```ts
 * createPetstoreClient({ baseUrl, apiKey, onDeprecation: (notice) => { metrics.count(notice.operation); warnDeprecation(notice) } })
 * ```
 */
export function warnDeprecation(notice: DeprecationNotice): void {
  const { process } = globalThis as { process?: { emitWarning?: EmitWarning } }
  const message = formatDeprecation(notice)
  if (typeof process?.emitWarning === 'function') {
    process.emitWarning(message, {
      type: 'DeprecationWarning',
      code: 'PETSTORE_DEPRECATED_OPERATION',
    })
  } else {
    console.warn(`DeprecationWarning: ${message}`)
  }
}

/**
 * Reports deprecated operations once each: a response carrying `Deprecation` or `Sunset` calls
 * `onDeprecation` with the dates and the successor from `Link rel="successor-version"`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9745
 * @see https://www.rfc-editor.org/rfc/rfc8594
 * @example
 * ```ts
 * client.use(deprecation({ onDeprecation: (notice) => log.warn(notice.operation, notice.sunset) }))
 * ```
 */
export function deprecation(options: DeprecationOptions = {}): Middleware {
  const { onDeprecation = warnDeprecation, operationIds = {} } = options
  const reported = new Set<string>()
  return {
    onResponse({ request, response, schemaPath }) {
      const { headers } = response
      if (!headers.has('Deprecation') && !headers.has('Sunset')) return
      const route = `${request.method} ${schemaPath}`
      if (reported.has(route)) return
      reported.add(route)
      const base = response.url || request.url
      onDeprecation({
        operation: operationIds[route] ?? route,
        method: request.method,
        path: schemaPath,
        deprecatedAt: parseDeprecation(headers.get('Deprecation')),
        sunset: parseHttpDate(headers.get('Sunset')),
        successor: findLink(headers, 'successor-version', base),
        documentation: findLink(headers, 'deprecation', base),
      })
    },
  }
}
