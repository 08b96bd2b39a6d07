/**
 * What a property promises beyond its values: whether clients send it or read it (`readOnly`,
 * `writeOnly`), its deprecation and sunset, its `x-stability-level`.
 */
import { breaking, type Change, type Direction, nonBreaking } from './change.js'
import { compareLifecycle } from './lifecycle.js'
import type { Json } from './load.js'
import { compareStability } from './stability.js'

export function comparePropertyContract(
  base: Json,
  head: Json,
  direction: Direction,
  name: string,
  location: string,
  now: Date,
): Change[] {
  return [
    ...compareAccess(base, head, direction, name, location),
    ...compareLifecycle(base, head, 'property', name, location, now),
    ...compareStability(base, head, location, name),
  ]
}

/**
 * A `readOnly` property is only sent by the service, a `writeOnly` one only by clients. Making a
 * request property read-only takes it away from clients that send it; making a response property
 * write-only stops sending it to clients that read it.
 */
function compareAccess(
  base: Json,
  head: Json,
  direction: Direction,
  name: string,
  location: string,
): Change[] {
  const [keyword, side] = direction === 'request' ? ['readOnly', 'sent'] : ['writeOnly', 'read']
  const before = base[keyword] === true
  const after = head[keyword] === true
  if (before === after) return []
  const rule = direction === 'request' ? 'property-became-read-only' : 'property-became-write-only'
  if (after) {
    const consequence =
      direction === 'request'
        ? 'clients that send it have it ignored or rejected'
        : 'clients reading it get nothing'
    return [breaking(rule, location, `${name} is now ${keyword}: ${consequence}`)]
  }
  const back = direction === 'request' ? 'property-became-writable' : 'property-became-readable'
  return [
    nonBreaking(back, location, `${name} is no longer ${keyword}: clients may now have it ${side}`),
  ]
}
