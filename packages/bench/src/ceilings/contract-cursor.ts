/**
 * The contract ceiling's pagination cursor: what the service's is (one AES-128 block, the id
 * it points after and a fixed 8-byte check, base64url, 22 characters), under a fixed key, so
 * that the bench can write the cursors of a cold walk for it without walking its links.
 * One long-lived ECB cipher each way, padding off: one block in, one block out per call.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto'

/** A ceiling's key, not a secret: the bench writes the walk's cursors with it. */
const key = Buffer.from('contract-ceiling', 'latin1')
const check = Buffer.from('petstore', 'latin1')
const maxHighBits = 2 ** 21 - 1
const blockCursor = /^[A-Za-z0-9_-]{21}[AQgw]$/

export interface ContractCursors {
  encode(afterId: number): string
  /** The id a cursor points after, or undefined when it was not made here. */
  decode(cursor: string): number | undefined
}

export function createContractCursors(): ContractCursors {
  const encrypt = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false)
  const decrypt = createDecipheriv('aes-128-ecb', key, null).setAutoPadding(false)
  const plain = Buffer.alloc(16)
  check.copy(plain, 8)
  return {
    encode(afterId) {
      plain.writeUInt32BE(Math.floor(afterId / 2 ** 32), 0)
      plain.writeUInt32BE(afterId % 2 ** 32, 4)
      return encrypt.update(plain).toString('base64url')
    },
    decode(cursor) {
      if (!blockCursor.test(cursor)) return undefined
      const block = decrypt.update(Buffer.from(cursor, 'base64url'))
      const high = block.readUInt32BE(0)
      if (high > maxHighBits || !block.subarray(8).equals(check)) return undefined
      return high * 2 ** 32 + block.readUInt32BE(4)
    },
  }
}
