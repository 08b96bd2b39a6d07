/** Deprecation and sunset of operations (`lifecycle.ts` has the rules they share). */
import type { Change } from './change.js'
import { compareLifecycle, deprecatedRemoval } from './lifecycle.js'
import type { Operation } from './model.js'

/** The removal of a deprecated operation, or `undefined` when it was not deprecated. */
export const deprecatedOperationRemoval = (base: Operation, now: Date): Change | undefined =>
  deprecatedRemoval(base.op, 'operation', base.id ?? base.label, base.label, now)

export const compareDeprecation = (base: Operation, head: Operation, now = new Date()): Change[] =>
  compareLifecycle(base.op, head.op, 'operation', 'the operation', base.label, now)
