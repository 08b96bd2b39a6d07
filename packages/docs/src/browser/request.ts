/**
 * Turns what a reader typed into the try-it console into a fetch request. Kept free of the DOM
 * so that the build's tests exercise it directly.
 */
import type { TryItOperation, TryItValues } from './types.js'

export interface PlannedRequest {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
}

/** A reader's mistake, shown in the console instead of sending a request that cannot succeed. */
export class InputError extends Error {
  override name = 'InputError'
}

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`
}

/**
 * The request for `operation` with `values`: path parameters substituted (percent-encoded),
 * non-empty query parameters appended in spec order, the key sent as a bearer token
 * (RFC 6750 §2.1) and the body checked for JSON syntax, then sent as the media type the
 * operation declares (a merge patch is `application/merge-patch+json`, which the service
 * requires).
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 */
export function planRequest(operation: TryItOperation, values: TryItValues): PlannedRequest {
  const headers: Record<string, string> = { Accept: 'application/json' }
  const query = new URLSearchParams()
  for (const parameter of operation.parameters) {
    const value = values.parameters[parameter.name]?.trim() ?? ''
    if (value === '') {
      if (parameter.required) throw new InputError(`${parameter.name} is required`)
      continue
    }
    if (parameter.in === 'query') query.append(parameter.name, value)
    else if (parameter.in !== 'path') headers[parameter.name] = value
  }
  const apiKey = values.apiKey.trim()
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`
  const search = query.toString()
  // Path parameters are required (OpenAPI): each was filled, or the loop above refused.
  const path = filledPath(operation, values) ?? operation.path
  const planned: PlannedRequest = {
    url: joinUrl(values.baseUrl.trim(), path) + (search ? `?${search}` : ''),
    method: operation.method.toUpperCase(),
    headers,
  }
  const body = values.body ?? ''
  if (operation.bodyMediaType !== undefined && (operation.bodyRequired || body.trim() !== '')) {
    try {
      JSON.parse(body)
    } catch (error) {
      throw new InputError(`the body is not valid JSON: ${(error as Error).message}`)
    }
    planned.headers['Content-Type'] = operation.bodyMediaType
    planned.body = body
  }
  return planned
}

/** The operation an address hash such as `#/pets/createpet` shows, as Redoc 3 spells it. */
export function operationForHash(
  operations: readonly TryItOperation[],
  hash: string,
): TryItOperation | undefined {
  const last = decodeURIComponent(hash.replace(/^#/, '').split(/[#?]/)[0] ?? '')
    .split('/')
    .filter(Boolean)
    .pop()
    ?.toLowerCase()
  return operations.find((operation) => operation.operationId.toLowerCase() === last)
}

/** A response body for display: JSON pretty-printed, anything else as it came. */
export function formatBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** What `rememberEtag` reads of an answer: a `fetch` `Response` has it all. */
export interface Answer {
  /** The absolute URL the request went to. */
  url: string
  status: number
  headers: { get(name: string): string | null }
}

/**
 * The address of the resource `operation` acts on with `values` (no query), against the page's
 * `base` when the server typed is relative; `undefined` while a path parameter is empty.
 */
export function resourceOf(
  operation: TryItOperation,
  values: TryItValues,
  base: string,
): string | undefined {
  const path = filledPath(operation, values)
  if (path === undefined) return undefined
  return resourceUrl(new URL(joinUrl(values.baseUrl.trim(), path), base).href)
}

/** The operation's path with its path parameters filled in, or undefined while one is empty. */
function filledPath(operation: TryItOperation, values: TryItValues): string | undefined {
  let path = operation.path
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path') continue
    const value = values.parameters[parameter.name]?.trim() ?? ''
    if (value === '') return undefined
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(value))
  }
  return path
}

/** `url` without its query or fragment: the resource an `ETag` belongs to. */
function resourceUrl(url: string): string {
  const resource = new URL(url)
  resource.search = ''
  resource.hash = ''
  return resource.href
}

/**
 * Keeps the `ETag` of the resource an answer describes, by the resource's URL: the `Location` of
 * a `201` (the created resource), else the URL asked for. A `DELETE` that succeeded forgets it.
 * The console's "Last ETag" button fills `If-Match` from these, so a conditional write needs no
 * copying of headers (RFC 9110 §13.1.1).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1
 */
export function rememberEtag(etags: Map<string, string>, method: string, answer: Answer): void {
  const location = answer.status === 201 ? answer.headers.get('location') : null
  const resource = resourceUrl(location ? new URL(location, answer.url).href : answer.url)
  const etag = answer.headers.get('etag')
  if (method.toUpperCase() === 'DELETE' && answer.status >= 200 && answer.status < 300) {
    etags.delete(resource)
  } else if (etag) {
    etags.set(resource, etag)
  }
}
