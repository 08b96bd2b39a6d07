/**
 * Bearer authentication for the /v1 scope, as hooks rather than per-handler code: first the
 * caller is identified (a valid key, else the client IP; never replies), then, after rate
 * limiting, a request to an operation without a valid key gets 401.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3
 */
import type { FastifyRequest } from 'fastify'
import { type ApiProblem, problem } from '../errors.js'
import type { MaybePromise } from '../maybe-promise.js'
import type { KeyStore } from '../store/store.js'
import { apiKeyLength, hashApiKey, looksLikeApiKey } from './api-key.js'
import type { Caller } from './caller.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request counts against; set by the /v1 pipeline (http/v1.ts) before rate limiting. */
    caller: Caller
  }
}

const bearer = /^bearer[ \t]+(\S+)[ \t]*$/i
/** How clients write a key's credential: `Bearer psk_live_…`, nothing around it. */
const canonicalScheme = 'Bearer '
const canonicalLength = canonicalScheme.length + apiKeyLength

/**
 * The token of a bearer credential. The header as clients write it is cut, not matched: every
 * request carries one, a cut is a length and a prefix test, and a token with a space in it is
 * still refused, by the key cache and then the key's shape (below). Other spellings of the
 * scheme go through the regular expression.
 */
function bearerToken(header: string): string | undefined {
  if (header.length === canonicalLength && header.startsWith(canonicalScheme)) {
    return header.slice(canonicalScheme.length)
  }
  return bearer.exec(header)?.[1]
}

/**
 * Finds the caller of a request from its Authorization header: at once when the key is in the
 * key store's cache (or none was sent).
 */
export function createCallerIdentifier(keys: KeyStore) {
  return function identifyCaller(
    request: Pick<FastifyRequest, 'headers' | 'ip'>,
  ): MaybePromise<Caller> {
    const header = request.headers.authorization
    const token = header === undefined ? undefined : bearerToken(header)
    const byIp = (): Caller => ({ kind: 'ip', ip: request.ip })
    if (token === undefined || token.length !== apiKeyLength) return byIp()
    const hash = hashApiKey(token)
    const cached = keys.cachedActive?.(hash)
    if (cached !== undefined) return { kind: 'key', key: cached }
    // The cache holds only keys the store found, so a hit needs no look at the key's shape: the
    // regular expression is paid only on the way to the store.
    if (!looksLikeApiKey(token)) return byIp()
    return keys
      .findActiveByHash(hash)
      .then((key): Caller => (key === undefined ? byIp() : { kind: 'key', key }))
  }
}

/**
 * Whether a request carries an API key the key store's cache holds as active: at once, with no
 * store call, so a key not looked up yet since the start answers false.
 */
export function createKnownKeyCheck(keys: KeyStore) {
  return function carriesKnownKey(request: Pick<FastifyRequest, 'headers'>): boolean {
    const header = request.headers.authorization
    const token = header === undefined ? undefined : bearerToken(header)
    if (token === undefined || token.length !== apiKeyLength) return false
    return keys.cachedActive?.(hashApiKey(token)) !== undefined
  }
}

const realm = 'Bearer realm="petstore"'

/**
 * The 401 for a request without a valid key. Without a bearer token (no header, or another
 * scheme) the challenge has no error attribute; with a bearer token that is not valid it says
 * `invalid_token` (RFC 6750 §3.1).
 */
export function unauthorized(request: FastifyRequest): ApiProblem {
  const header = request.headers.authorization
  const challenge = { 'www-authenticate': realm }
  if (header === undefined || header.trim() === '') {
    return problem('keyMissing').withHeaders(challenge)
  }
  if (bearer.exec(header) === null) return problem('notBearer').withHeaders(challenge)
  return problem('keyNotValid').withHeaders({
    'www-authenticate': `${realm}, error="invalid_token", error_description="The API key is unknown, malformed or revoked"`,
  })
}
