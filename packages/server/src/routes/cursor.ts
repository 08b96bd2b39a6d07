/**
 * Pagination cursors: opaque and tamper-evident, so a client can neither read, build nor alter
 * one. A cursor is one AES-128 block, base64url (22 characters): the id it points after (8 bytes,
 * big-endian) and a fixed 8-byte check, encrypted under a key derived from the store's secret and
 * the list operation, so cursors survive restarts, every instance reads the others', and a
 * cursor of one listing is refused by every other (its check comes out scattered). Decrypting
 * anything not made here scatters the check: a forgery passes with odds of 2^-75 (the check and
 * the 11 high bits of a safe integer). A page costs one block cipher call, on a cipher made once.
 *
 * The earlier form, `base64url({"v":1,"id":N}).HMAC-SHA256` (16 bytes of tag), is still read, so
 * a walk begun before an upgrade goes on; none is made any more.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  timingSafeEqual,
} from 'node:crypto'
import type { ListOperationId } from '../store/resource.js'

export interface CursorCodec {
  /** The cursor for "after the pet with this id". */
  encode(afterId: number): string
  /** The id a cursor points after, or undefined when it is malformed or was altered. */
  decode(cursor: string): number | undefined
}

const blockBytes = 16
const check = Buffer.from('petstore', 'latin1')
/** The high 32 bits of Number.MAX_SAFE_INTEGER (2^53 - 1). */
const maxHighBits = 2 ** 21 - 1
/** Exactly what base64url writes for one block: 21 characters, then one of 4 (2 bits left). */
const blockCursor = /^[A-Za-z0-9_-]{21}[AQgw]$/

/**
 * @example
 * ```ts
 * const cursors = createCursorCodec(secret, 'listPets')
 * cursors.decode(cursors.encode(20)) // 20
 * ```
 */
export function createCursorCodec(secret: string, operationId: ListOperationId): CursorCodec {
  const key = Buffer.from(hkdfSync('sha256', secret, '', keyInfo(operationId), 16))
  // ECB over exactly one block, padding off: each update() is one block in, one block out, so one
  // cipher object serves every request, with no object made per cursor.
  const encrypt = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false)
  const decrypt = createDecipheriv('aes-128-ecb', key, null).setAutoPadding(false)
  const readEarlierForm = earlierFormReader(secret, operationId)
  const plain = Buffer.alloc(blockBytes)
  check.copy(plain, 8)
  return {
    encode(afterId) {
      // A pet id is a safe integer: two 32-bit halves, no BigInt per page.
      plain.writeUInt32BE(Math.floor(afterId / 2 ** 32), 0)
      plain.writeUInt32BE(afterId % 2 ** 32, 4)
      return encrypt.update(plain).toString('base64url')
    },
    decode(cursor) {
      if (!blockCursor.test(cursor)) return readEarlierForm(cursor)
      const block = decrypt.update(Buffer.from(cursor, 'base64url'))
      const high = block.readUInt32BE(0)
      if (high > maxHighBits || !block.subarray(8).equals(check)) return undefined
      return high * 2 ** 32 + block.readUInt32BE(4)
    },
  }
}

/**
 * What the key is derived for. listPets' cursors were made before cursors were bound to an
 * operation, under the plain label: keeping it lets walks begun before an upgrade go on.
 */
function keyInfo(operationId: ListOperationId): string {
  const label = 'petstore pagination cursor'
  return operationId === 'listPets' ? label : `${label} ${operationId}`
}

/**
 * Reads `base64url({"v":1,"id":N}).tag`, the form made before the block cursor (listPets' only,
 * the one listing then).
 */
function earlierFormReader(
  secret: string,
  operationId: ListOperationId,
): (cursor: string) => number | undefined {
  if (operationId !== 'listPets') return () => undefined
  const tagBytes = 16
  return (cursor) => {
    const [payload, tag, extra] = cursor.split('.')
    if (payload === undefined || tag === undefined || extra !== undefined) return undefined
    const given = Buffer.from(tag, 'base64url')
    if (given.length !== tagBytes || given.toString('base64url') !== tag) return undefined
    const expected = createHmac('sha256', secret).update(payload).digest().subarray(0, tagBytes)
    if (!timingSafeEqual(given, expected)) return undefined
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
}
