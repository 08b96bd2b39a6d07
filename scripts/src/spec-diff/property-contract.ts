/**
 * What a property promises beyond its values: whether clients send it or read it (`readOnly`,
 * `writeOnly`), its deprecation and sunset, its `x-stability-level`.
 */
import { breaking, type Change, type Direction, nonBreaking, withOasdiffId } from './change.js'
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
  required: boolean,
): Change[] {
  return [
    ...compareAccess(base, head, direction, name, location, required),
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
  required: boolean,
): Change[] {
  const [keyword, side] = direction === 'request' ? ['readOnly', 'sent'] : ['writeOnly', 'read']
  const before = base[keyword] === true
  const after = head[keyword] === true
  if (before === after) return []
  const rule = direction === 'request' ? 'property-became-read-only' : 'property-became-write-only'
  // oasdiff: `request-required-property-became-read-only`, `response-optional-...-not-write-only`.
  const id = (not: string) =>
    `${direction}-${required ? 'required' : 'optional'}-property-became-${not}${keyword === 'readOnly' ? 'read-only' : 'write-only'}`
  if (after) {
    const consequence =
      direction === 'request'
        ? 'clients that send it have it ignored or rejected'
        : 'clients reading it get nothing'
    return [
      withOasdiffId(breaking(rule, location, `${name} is now ${keyword}: ${consequence}`), id('')),
    ]
  }
  const back = direction === 'request' ? 'property-became-writable' : 'property-became-readable'
  const message = `${name} is no longer ${keyword}: clients may now have it ${side}`
  return [withOasdiffId(nonBreaking(back, location, message), id('not-'))]
}
