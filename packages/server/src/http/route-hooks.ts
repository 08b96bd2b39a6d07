/**
 * Route-level hooks in Fastify's callback form. A hook that returns a promise costs one and a
 * microtask on every request of its route, even when it has nothing to do; a step written here
 * returns `undefined` then (a create without `Idempotency-Key`: nearly every one), and the
 * request goes on at once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'

/** Work on a request: `undefined` when there is none, else its promise. May throw to refuse. */
export type RouteStep = (request: FastifyRequest) => Promise<void> | undefined

type Done = (error?: Error) => void
export type RouteHook = (request: FastifyRequest, reply: FastifyReply, done: Done) => void
/** `onRequestAbort` hooks are called without the reply. */
export type AbortHook = (request: FastifyRequest, done: Done) => void

function settle(step: RouteStep, request: FastifyRequest, done: Done): void {
  let pending: Promise<void> | undefined
  try {
    pending = step(request)
  } catch (error) {
    done(error as Error)
    return
  }
  if (pending === undefined) done()
  else pending.then(() => done(), done)
}

export function routeHook(step: RouteStep): RouteHook {
  return (request, _reply, done) => settle(step, request, done)
}

export function abortHook(step: RouteStep): AbortHook {
  return (request, done) => settle(step, request, done)
}
