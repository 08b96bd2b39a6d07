/**
 * Idempotency-Key for createPet (draft-ietf-httpapi-idempotency-key-header-07). The key is
 * claimed as soon as the request is authenticated, before its body is read, so a retry sent
 * while the first request is still uploading or running gets 409; the record is completed in
 * the same transaction as the pet it created, and replayed for 24 hours. A request that fails
 * releases its claim, so the client may fix it and retry with the same key.
 *
 * A duplicate that arrives while the first is in flight waits up to `waitMs` for it to finish
 * (then replays it): parallel retries of a fast request all get the same pet. Only a request
 * still running after that wait makes the duplicate a 409.
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/
 */
import { hash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { problem } from '../errors.js'
import { createAjv } from '../spec/ajv.js'
import { resolvePointer, specDocument } from '../spec/document.js'
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
    /** Set on createPet requests that carry an Idempotency-Key. */
    idempotency: IdempotencyState | null
  }
}

export interface IdempotencyOptions {
  store: IdempotencyStore
  /** How long a key is remembered; 24 h by SERVICE.md. */
  ttlMs?: number
  /** An in-flight claim older than this was abandoned by a crashed process. */
  staleMs?: number
  now?: () => number
  /** How long a duplicate waits for an in-flight original before 409 (1000 ms). */
  waitMs?: number
}

export interface Idempotency {
  /** Route `onRequest` hook: claims the key, or fails with 400 (bad key) or 409 (in flight). */
  claim(request: FastifyRequest): Promise<void>
  /** Route `onResponse` / `onRequestAbort` hook: drops a claim the request did not complete. */
  release(request: FastifyRequest): Promise<void>
  /** Marks the request's record completed (written with the pet) and wakes waiting duplicates. */
  completed(request: FastifyRequest): void
  /**
   * What "the same request" means: the same operation (`target`, its collection's URL: a key
   * sent to another operation is a reuse) and the same validated body, object keys sorted at
   * every depth.
   */
  fingerprint(target: string, body: object): string
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

  return {
    async claim(request) {
      request.idempotency = null
      const header = request.headers['idempotency-key']
      if (header === undefined || request.caller.kind !== 'key') return
      if (typeof header !== 'string' || !validHeader(header)) {
        throw problem('invalidIdempotencyKey')
      }
      const key = header.startsWith('"') ? header.slice(1, -1) : header
      const scope = request.caller.key.id
      const found = await claimWaiting(scope, key)
      if (found.state === 'in_progress') {
        throw problem('idempotencyKeyInProgress')
      }
      request.idempotency = { ...found, scope, key }
    },
    async release(request) {
      const held = request.idempotency
      if (held === null) return
      if (held.state === 'claimed') {
        request.idempotency = { state: 'done', scope: held.scope, key: held.key }
        await options.store.release(held.scope, held.key)
      }
      finish(held.scope, held.key)
    },
    completed(request) {
      const held = request.idempotency
      if (held === null) return
      request.idempotency = { state: 'done', scope: held.scope, key: held.key }
      finish(held.scope, held.key)
    },
    fingerprint(target, body) {
      return hash('sha256', `${target} ${JSON.stringify(sortedKeys(body))}`, 'base64url')
    },
  }
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
