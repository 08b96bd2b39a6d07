/**
 * Hooks in Fastify's callback form, made from a step that finishes at once when it can
 * (maybe-promise.ts). An async hook costs a promise and a microtask on every request it sees,
 * even when it has nothing to wait for: a create without `Idempotency-Key`, a head that passes
 * its checks, a caller whose key is cached. A step returns a promise only when it waits; a throw
 * or a rejection refuses the request.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isPromise, type MaybePromise } from '../maybe-promise.js'

/** Work on a request. */
export type HookStep = (request: FastifyRequest, reply: FastifyReply) => MaybePromise<void>

type Done = (error?: Error) => void
export type CallbackHook = (request: FastifyRequest, reply: FastifyReply, done: Done) => void

/** Calls `done` once `result` settles: at once when it is at hand. */
function doneWhen(result: MaybePromise<void>, done: Done): void {
  if (isPromise(result)) result.then(() => done(), done)
  else done()
}

/** An `onRequest`, `preHandler` or `onResponse` hook running `step`. */
export function callbackHook(step: HookStep): CallbackHook {
  return (request, reply, done) => {
    let result: MaybePromise<void>
    try {
      result = step(request, reply)
    } catch (error) {
      done(error as Error)
      return
    }
    doneWhen(result, done)
  }
}
