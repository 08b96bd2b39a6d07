/**
 * Pagination cursors: opaque and tamper-evident. A cursor is `base64url({"v":1,"id":N})` and
 * a truncated HMAC-SHA256 of it, so a client can neither build nor alter one; the secret lives
 * in the store, so cursors survive restarts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface CursorCodec {
  /** The cursor for "after the pet with this id". */
  encode(afterId: number): string
  /** The id a cursor points after, or undefined when it is malformed or was altered. */
  decode(cursor: string): number | undefined
}

const tagBytes = 16
/**
 * Clients walk the same pages again and again, and an HMAC costs more than the rest of the
 * cursor work: the last cursors made or checked are remembered. Only valid cursors are kept, so
 * forged ones cannot fill the memory; past the bound the memory starts over.
 */
const remembered = 4096

/**
 * @example
 * ```ts
 * const cursors = createCursorCodec(secret)
 * cursors.decode(cursors.encode(20)) // 20
 * ```
 */
export function createCursorCodec(secret: string): CursorCodec {
  const sign = (payload: string) =>
    createHmac('sha256', secret).update(payload).digest().subarray(0, tagBytes)
  const encode = (afterId: number) => {
    const payload = Buffer.from(JSON.stringify({ v: 1, id: afterId })).toString('base64url')
    return `${payload}.${sign(payload).toString('base64url')}`
  }
  const decode = (cursor: string) => {
    const [payload, tag, extra] = cursor.split('.')
    if (payload === undefined || tag === undefined || extra !== undefined) return undefined
    const given = Buffer.from(tag, 'base64url')
    if (given.length !== tagBytes || given.toString('base64url') !== tag) return undefined
    if (!timingSafeEqual(given, sign(payload))) return undefined
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        v?: unknown
        id?: unknown
      }
      const id = parsed.id
      return parsed.v === 1 && typeof id === 'number' && Number.isSafeInteger(id) && id >= 0
        ? id
        : undefined
    } catch {
      return undefined
    }
  }
  const cursors = new Map<number, string>()
  const ids = new Map<string, number>()
  const remember = (afterId: number, cursor: string) => {
    if (ids.size >= remembered) {
      ids.clear()
      cursors.clear()
    }
    ids.set(cursor, afterId)
    cursors.set(afterId, cursor)
  }
  return {
    encode(afterId) {
      let cursor = cursors.get(afterId)
      if (cursor === undefined) {
        cursor = encode(afterId)
        remember(afterId, cursor)
      }
      return cursor
    },
    decode(cursor) {
      let afterId = ids.get(cursor)
      if (afterId === undefined) {
        afterId = decode(cursor)
        if (afterId !== undefined) remember(afterId, cursor)
      }
      return afterId
    },
  }
}
