/**
 * The classifier: every rule family over two resolved specs, breaking changes first. Operations
 * are matched by method and path; the families then compare what both specs share. Webhooks
 * follow (`webhooks.ts`).
 */
import type { Change } from './change.js'
import { compareDeprecation } from './deprecation.js'
import type { Json } from './load.js'
import { operationsOf, webhooksOf } from './model.js'
import { compareOperations } from './operations.js'
import { compareParameters } from './parameters.js'
import { compareRequestBodies } from './request-bodies.js'
import { compareResponseHeaders } from './response-headers.js'
import { compareResponseBodies } from './responses.js'
import { compareSecurity } from './security.js'
import { allowUnstable, compareStability } from './stability.js'
import { compareStatusCodes } from './status-codes.js'
import { compareWebhooks } from './webhooks.js'

export interface DiffOptions {
  /** When a removed operation's `x-sunset` counts as passed; defaults to the current time. */
  now?: Date
}

const FAMILIES = [
  compareParameters,
  compareRequestBodies,
  compareStatusCodes,
  compareResponseBodies,
  compareResponseHeaders,
  compareDeprecation,
]

export function diffSpecs(base: Json, head: Json, options: DiffOptions = {}): Change[] {
  const before = operationsOf(base)
  const after = operationsOf(head)
  const now = options.now ?? new Date()
  let changes = compareOperations(before, after, now)
  for (const [key, operation] of before) {
    const next = after.get(key)
    if (next === undefined) continue
    changes.push(...compareStability(operation.op, next.op, operation.label, 'the operation'))
    changes.push(...compareSecurity(operation, next, base, head))
    for (const family of FAMILIES) changes.push(...family(operation, next, now))
  }
  const webhooks = webhooksOf(base)
  changes.push(...compareWebhooks(webhooks, webhooksOf(head), now))
  for (const operation of [...before.values(), ...webhooks.values()]) {
    changes = allowUnstable(changes, operation.label, operation.op)
  }
  return [
    ...changes.filter((c) => c.kind === 'breaking'),
    ...changes.filter((c) => c.kind === 'non-breaking'),
  ]
}
