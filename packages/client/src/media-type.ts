/**
 * The request body's declared media type. openapi-fetch labels every body `application/json`;
 * an operation whose spec declares another type (`updatePet` and `updateOrder` take
 * `application/merge-patch+json`, RFC 7396) would be refused with `415`. The call is given the
 * first type its operation declares, unless the caller set a `Content-Type` of their own.
 */
import { operationIds, operationRequestMediaTypes } from '@petstore/types'

/** openapi-fetch's `Content-Type` for a body, which needs no help. */
const fetchDefault = 'application/json'

/** The type to send by `METHOD path`, for the operations whose first one is not openapi-fetch's. */
const declaredTypes = new Map(
  Object.entries(operationIds).flatMap(([route, id]) => {
    const [type] = operationRequestMediaTypes[id]
    return type === undefined || type === fetchDefault ? [] : [[route, type] as const]
  }),
)

/** The init of an openapi-fetch call, as far as this module reads it. */
interface BodyInit {
  body?: unknown
  headers?: unknown
}

const setsContentType = (headers: unknown): boolean =>
  headers instanceof Headers
    ? headers.has('Content-Type')
    : typeof headers === 'object' &&
      headers !== null &&
      Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')

/**
 * `init` with the `Content-Type` its operation declares, when it has a body, the declared type
 * is not openapi-fetch's default and the caller set none. Header pairs (`[name, value][]`, a
 * `HeadersInit` openapi-fetch would read as a record of indexes) become a `Headers`.
 *
 * @example
 * ```ts
 * withDeclaredMediaType('patch', '/pets/{petId}', { body: { name: 'Rex' } })
 * // { body: { name: 'Rex' }, headers: { 'Content-Type': 'application/merge-patch+json' } }
 * ```
 */
export function withDeclaredMediaType<Init extends BodyInit | undefined>(
  method: string,
  path: string,
  init: Init,
): Init {
  if (init === undefined) return init
  const headers = Array.isArray(init.headers)
    ? new Headers(init.headers as [string, string][])
    : init.headers
  const type =
    init.body === undefined ? undefined : declaredTypes.get(`${method.toUpperCase()} ${path}`)
  if (type === undefined || setsContentType(headers)) {
    return headers === init.headers ? init : { ...init, headers }
  }
  if (headers instanceof Headers) {
    const copy = new Headers(headers)
    copy.set('Content-Type', type)
    return { ...init, headers: copy }
  }
  return { ...init, headers: { ...(headers as object | undefined), 'Content-Type': type } }
}
