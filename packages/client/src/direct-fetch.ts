/**
 * openapi-fetch builds a `Request` for every call and hands it to `fetch`, which copies it into a
 * second `Request` whose abort signal follows the first one's. In Node that copy, and above all
 * the signal link (a `WeakRef`, a listener and a finalizer), cost more than the rest of
 * openapi-fetch and our middleware together. So the client builds its requests with
 * {@link BuiltRequest}, which remembers the URL and init each came from, and sends one that
 * reaches `fetch` unchanged (the same object, no body) as `fetch(url, init)` with the request's
 * current headers: what `fetch(request)` would send, following the caller's own signal or none.
 */

interface Source {
  input: string
  init: RequestInit | undefined
}

/**
 * Where a BuiltRequest keeps its arguments; headers are all middleware can change. A property,
 * not a WeakMap: a weak entry per call costs the garbage collector more than a field.
 */
const source = Symbol('petstore.source')

type WithSource = Request & { [source]?: Source }

/**
 * A `Request` constructor (openapi-fetch's `Request` option) that records what each request was
 * built from. It constructs plain `Request`s and shares `Request.prototype`, so
 * `value instanceof BuiltRequest` holds for every `Request`: openapi-fetch checks what
 * middleware returns that way, and any `Request` must pass, not only ours.
 */
export const BuiltRequest = function BuiltRequest(input: RequestInfo | URL, init?: RequestInit) {
  const request: WithSource = new Request(input, init)
  if (typeof input === 'string' && init?.body == null) request[source] = { input, init }
  return request
} as unknown as typeof Request
BuiltRequest.prototype = Request.prototype

/**
 * `fetch(request)`, sent from the arguments {@link BuiltRequest} built `request` from when it
 * has them.
 *
 * @example
 * ```ts
 * const client = createClient<paths>({ baseUrl, Request: BuiltRequest, fetch: directFetch })
 * ```
 */
export function directFetch(request: Request): Promise<Response> {
  const built = (request as WithSource)[source]
  if (!built) return fetch(request)
  return fetch(built.input, { ...built.init, headers: request.headers })
}
