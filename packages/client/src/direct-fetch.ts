/**
 * openapi-fetch builds a `Request` for every call and hands it to `fetch`, which copies it into a
 * second `Request` whose abort signal follows the first one's. In Node that copy, and above all
 * the signal link (a `WeakRef`, a listener and a finalizer), cost more than the rest of
 * openapi-fetch and our middleware together. So the client builds its requests as
 * {@link BuiltRequest}s, which remember the URL and init they came from, and sends one that
 * reaches `fetch` unchanged (the same object, no body) as `fetch(url, init)` with the request's
 * current headers: what `fetch(request)` would send, following the caller's own signal or none.
 */

interface Source {
  input: string
  init: RequestInit | undefined
}

/** A `Request` (openapi-fetch's `Request` option) that keeps the arguments it was built from. */
export class BuiltRequest extends Request {
  readonly #source: Source | undefined

  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init)
    // Headers are the only part middleware can change on this object.
    this.#source = typeof input === 'string' && init?.body == null ? { input, init } : undefined
  }

  /**
   * openapi-fetch checks what middleware returns against its `Request` option: any `Request`
   * must pass, not only ours.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request
  }

  /** What `request` was built from, when it is a `BuiltRequest` that can be sent from it. */
  static sourceOf(request: Request): Source | undefined {
    return #source in request ? request.#source : undefined
  }
}

/**
 * `fetch(request)`, sent from the arguments a {@link BuiltRequest} was built from when that is
 * the request.
 *
 * @example
 * ```ts
 * const client = createClient<paths>({ baseUrl, Request: BuiltRequest, fetch: directFetch })
 * ```
 */
export function directFetch(request: Request): Promise<Response> {
  const source = BuiltRequest.sourceOf(request)
  if (!source) return fetch(request)
  return fetch(source.input, { ...source.init, headers: request.headers })
}
