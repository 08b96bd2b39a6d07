/**
 * Child spans for the calls a request makes to the store and to a Redis limiter, following the
 * database client conventions: kind CLIENT, `db.system.name` (`sqlite`, `postgresql`, `redis`),
 * `db.operation.name` (the store's method) and `db.collection.name` (its table), named
 * `{operation} {table}`. Written once around the interfaces (store.ts, limiter.ts), so every
 * implementation is traced alike. A call outside a sampled request (start-up, the idempotency
 * purge, an unsampled request) makes no span.
 * @see https://opentelemetry.io/docs/specs/semconv/database/database-spans/
 */
import {
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
} from '@opentelemetry/semantic-conventions'
import { isPromise } from '../maybe-promise.js'
import type { RateLimiter } from '../rate-limit/limiter.js'
import { resources } from '../store/resources.js'
import type { Store } from '../store/store.js'

type Operations<T> = readonly Extract<keyof T, string>[]

/** Starts the span of one call, when the active request is being recorded. */
type StartSpan = (operation: string) => Span | undefined

function spanStarter(tracer: Tracer, system: string, collection?: string): StartSpan {
  return (operation) => {
    const parent = context.active()
    if (trace.getSpan(parent)?.isRecording() !== true) return undefined
    const attributes: Record<string, string> = {
      [ATTR_DB_SYSTEM_NAME]: system,
      [ATTR_DB_OPERATION_NAME]: operation,
    }
    if (collection !== undefined) attributes[ATTR_DB_COLLECTION_NAME] = collection
    const name = collection === undefined ? operation : `${operation} ${collection}`
    return tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent)
  }
}

function ended<T>(span: Span, result: T): T {
  span.end()
  return result
}

function failed(span: Span, error: unknown): never {
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message })
  span.setAttribute(ATTR_ERROR_TYPE, (error as Error)?.name ?? 'Error')
  span.end()
  throw error
}

/** Runs `call` inside the span `start` gives, if any; sync results stay sync. */
function within<T>(start: StartSpan, operation: string, call: () => T): T {
  const span = start(operation)
  if (span === undefined) return call()
  let result: T
  try {
    result = call()
  } catch (error) {
    failed(span, error)
  }
  if (!isPromise(result)) return ended(span, result)
  return result.then(
    (value) => ended(span, value),
    (error: unknown) => failed(span, error),
  ) as T
}

/** Every method of `target`, its prototypes' included. */
function methodNames(target: object): string[] {
  const names = new Set<string>()
  for (let at = target; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
    for (const name of Object.getOwnPropertyNames(at)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function')
        names.add(name)
    }
  }
  return [...names]
}

/**
 * `target` with each of `operations` in a span; its other members read through, its methods
 * still called on `target` (an implementation's private fields need that `this`).
 */
function wrap<T extends object>(target: T, operations: Operations<T>, start: StartSpan): T {
  const wrapper = Object.create(target) as T
  const spanned = new Set<string>(operations)
  for (const name of methodNames(target)) {
    const method = (target as Record<string, (...args: unknown[]) => unknown>)[name]
    const value = spanned.has(name)
      ? (...args: unknown[]) => within(start, name, () => method?.apply(target, args))
      : method?.bind(target)
    Object.defineProperty(wrapper, name, { value, enumerable: true })
  }
  return wrapper
}

export function traceStore(store: Store, tracer: Tracer, system: string): Store {
  const traced = wrap(
    wrap(store, ['setting'], spanStarter(tracer, system, 'settings')),
    ['ping'],
    spanStarter(tracer, system),
  )
  const members: Record<string, unknown> = {
    keys: wrap(
      store.keys,
      ['create', 'findActiveByHash', 'list', 'revoke', 'countActive'],
      spanStarter(tracer, system, 'api_keys'),
    ),
    idempotency: wrap(
      store.idempotency,
      ['claim', 'release', 'purgeExpired'],
      spanStarter(tracer, system, 'idempotency_records'),
    ),
  }
  for (const [name, definition] of Object.entries(resources)) {
    const resource = store[name as keyof typeof resources]
    members[name] = wrap(
      resource,
      ['create', 'get', 'list'],
      spanStarter(tracer, system, definition.table),
    )
  }
  for (const [name, value] of Object.entries(members)) {
    Object.defineProperty(traced, name, { value, enumerable: true })
  }
  return traced
}

export function traceLimiter(limiter: RateLimiter, tracer: Tracer): RateLimiter {
  return wrap(limiter, ['consume'], spanStarter(tracer, 'redis'))
}
