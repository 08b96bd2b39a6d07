/**
 * Idempotency-Key for every create of a collection (createPet, placeOrder, and any the spec adds;
 * draft-ietf-httpapi-idempotency-key-header-07). The key is claimed as soon as the request is
 * authenticated, before its body is read, so a retry sent while the first request is still
 * uploading or running gets 409; the record is completed in the same transaction as the
 * resource it created, and replayed for 24 hours. A request that fails releases its claim, so
 * the client may fix it and retry with the same key.
 *
 * A duplicate that arrives while the first is in flight waits up to `waitMs` for it to finish
 * (then replays it): parallel retries of a fast request all get the same resource. Only a
 * request still running after that wait makes the duplicate a 409.
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/
 */
import { hash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type ApiProblem, problem } from '../errors.js'
import { type CallbackHook, callbackHook } from '../http/callback-hooks.js'
import type { MaybePromise } from '../maybe-promise.js'
import { etagOf } from '../routes/etag.js'
import { createAjv } from '../spec/ajv.js'
import { resolvePointer, specDocument } from '../spec/document.js'
import type { IdempotencyCompletion, Identified } from '../store/resource.js'
import type { IdempotencyStore, StoredResponse } from '../store/store.js'

export type IdempotencyState =
  | { state: 'claimed'; scope: string; key: string }
  | {
      state: 'completed'
      scope: string
      key: string
      fingerprint: string
      response: StoredResponse
    }
  | { state: 'done'; scope: string; key: string }

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a create's requests that carry an Idempotency-Key. */
    idempotency: IdempotencyState | null
  }
}

export interface IdempotencyOptions {
  store: IdempotencyStore
  /** How long a key is remembered: 24 h, as the spec's `IdempotencyKey` parameter says. */
  ttlMs?: number
  /** An in-flight claim older than this was abandoned by a crashed process. */
  staleMs?: number
  now?: () => number
  /** How long a duplicate waits for an in-flight original before 409 (1000 ms). */
  waitMs?: number
}

/** A create's answer: what is sent the first time, and what its record replays. */
export interface CreatedResponse<R> {
  status: 201
  body: R
  headers: { Location: string; ETag: string }
}

/** The first answer to a key, sent again to a repeat of its request. */
export interface ReplayedResponse<R> {
  status: 201
  body: R
  headers: { Location: string; ETag: string; 'Idempotent-Replayed': 'true' }
}

/** What `Idempotency.create` needs to know of one create. */
export interface IdempotentCreate<R extends Identified> {
  /**
   * The operation's collection URL: part of what "the same request" means, so a key sent to
   * another operation is a reuse.
   */
  target: string
  /** The validated body, defaults applied: the rest of what "the same request" means. */
  draft: object
  /** Stores the resource; with `completion`, completes the key's record in the same transaction. */
  store(completion?: IdempotencyCompletion<R>): Promise<R>
  /** The answer to a create of `created`: built here only, so a replay sends what the first got. */
  answer(created: R): CreatedResponse<R>
}

export interface Idempotency {
  /**
   * Runs a create under the request's `Idempotency-Key`: without a key, or the first time, it
   * stores and answers; a repeat gets the first answer replayed (`Idempotent-Replayed: true`),
   * and the same key with another body or operation is `422` `idempotency_key_reused`.
   */
  create<R extends Identified>(
    request: FastifyRequest,
    create: IdempotentCreate<R>,
  ): Promise<CreatedResponse<R> | ReplayedResponse<R> | ApiProblem<422>>
  /**
   * The route hooks of an idempotent create: `onRequest` claims the key (or fails with 400 for
   * a bad key, 409 while it is in flight). A claim the request did not complete is dropped when
   * its response closes: answered, failed or cut off by the client.
   */
  hooks: {
    onRequest: CallbackHook[]
  }
}

const headerSchema = resolvePointer(specDocument, '#/components/parameters/IdempotencyKey/schema')

export function createIdempotency(options: IdempotencyOptions): Idempotency {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000
  const staleMs = options.staleMs ?? 5 * 60 * 1000
  const now = options.now ?? Date.now
  const waitMs = options.waitMs ?? 1000
  const validHeader = createAjv().compile(headerSchema as object)
  /** Settles when the in-flight request of this process holding `scope key` finishes. */
  const running = new Map<string, { done: Promise<void>; finish: () => void }>()
  const claimOnce = (scope: string, key: string) =>
    options.store.claim(scope, key, now(), ttlMs, staleMs)
  const finish = (scope: string, key: string) => {
    const id = `${scope} ${key}`
    running.get(id)?.finish()
    running.delete(id)
  }

  /** Claims, waiting out an in-flight holder: local ones are awaited, remote ones polled. */
  async function claimWaiting(scope: string, key: string) {
    const deadline = now() + waitMs
    let found = await claimOnce(scope, key)
    while (found.state === 'in_progress' && now() < deadline) {
      const local = running.get(`${scope} ${key}`)
      await Promise.race([
        local?.done,
        delay(local === undefined ? 25 : Math.max(1, deadline - now())),
      ])
      found = await claimOnce(scope, key)
    }
    if (found.state === 'claimed') {
      let resolve = () => {}
      const done = new Promise<void>((settle) => {
        resolve = settle
      })
      running.set(`${scope} ${key}`, { done, finish: resolve })
    }
    return found
  }

  function claim(request: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
    request.idempotency = null
    const header = request.headers['idempotency-key']
    if (header === undefined || request.caller.kind !== 'key') return
    if (typeof header !== 'string' || !validHeader(header)) {
      throw problem('invalidIdempotencyKey')
    }
    return claimKey(request, reply, request.caller.key.id, header)
  }

  async function claimKey(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    header: string,
  ) {
    const key = header.startsWith('"') ? header.slice(1, -1) : header
    const found = await claimWaiting(scope, key)
    if (found.state === 'in_progress') {
      throw problem('idempotencyKeyInProgress')
    }
    const held: IdempotencyState = { ...found, scope, key }
    request.idempotency = held
    // Listened to on the requests that hold a key only: a route hook would add its step, and
    // for aborts a listener, to every create.
    const response = reply.raw
    if (response.closed) release(request, held)
    else response.once('close', () => release(request, held))
  }

  /**
   * Drops the claim `held` unless its create completed it, then lets the duplicates waiting for
   * it go on. A failure is logged: the claim then expires as a stale one.
   */
  function release(request: FastifyRequest, held: IdempotencyState): void {
    if (request.idempotency !== held || held.state !== 'claimed') {
      finish(held.scope, held.key)
      return
    }
    request.idempotency = { state: 'done', scope: held.scope, key: held.key }
    options.store
      .release(held.scope, held.key)
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'releasing an idempotency key failed')
      })
      .then(() => finish(held.scope, held.key))
  }

  return {
    async create<R extends Identified>(request: FastifyRequest, create: IdempotentCreate<R>) {
      const held = request.idempotency
      if (held === null || held.state === 'done') return create.answer(await create.store())
      const fingerprint = fingerprintOf(create.target, create.draft)
      if (held.state === 'completed') {
        if (held.fingerprint !== fingerprint) return problem('idempotencyKeyReused')
        return replayed(held.response)
      }
      const respond = (created: R) => stored(create.answer(created))
      const created = await create.store({ scope: held.scope, key: held.key, fingerprint, respond })
      request.idempotency = { state: 'done', scope: held.scope, key: held.key }
      finish(held.scope, held.key)
      return create.answer(created)
    },
    hooks: { onRequest: [callbackHook(claim)] },
  }
}

/**
 * A request's fingerprint: its operation (`target`) and its validated body, object keys sorted
 * at every depth, so a client that orders its keys differently still sends "the same request".
 */
function fingerprintOf(target: string, body: object): string {
  return hash('sha256', `${target} ${JSON.stringify(sortedKeys(body))}`, 'base64url')
}

/**
 * An answer as its record keeps it. The format is the one records have had since the first
 * version (status, JSON text, lower-case header names), so records written by an earlier
 * version, in either store, replay unchanged.
 */
function stored<R>(answer: CreatedResponse<R>): StoredResponse {
  return {
    status: answer.status,
    body: JSON.stringify(answer.body),
    headers: { location: answer.headers.Location },
  }
}

/**
 * The recorded answer, sent again: its status, body and `Location`, marked as a replay, with the
 * `ETag` of the body it replays (a digest of it: records of every version replay with it). A
 * record that is not a create's answer cannot be replayed as one; that is the server's fault
 * (500).
 */
function replayed<R extends object>(response: StoredResponse): ReplayedResponse<R> {
  const location = response.headers?.location
  if (response.status !== 201 || typeof location !== 'string') {
    throw new Error(`idempotency record holds no create answer (status ${response.status})`)
  }
  const body = JSON.parse(response.body) as R
  const headers = { Location: location, ETag: etagOf(body), 'Idempotent-Replayed': 'true' as const }
  return { status: 201, body, headers }
}

/** `value` with every object's keys in sorted order, arrays kept in theirs. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(entries.map(([key, child]) => [key, sortedKeys(child)]))
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
