import { createHmac } from 'node:crypto'
import { expect, it } from 'vitest'
import { createCursorCodec } from '../../src/routes/cursor.js'
import type { ListOperationId } from '../../src/store/resource.js'

const secret = 's'.repeat(32)
const cursors = createCursorCodec(secret, 'listPets')

it('round-trips ids as 22 characters of the spec cursor alphabet', () => {
  for (const id of [0, 1, 20, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
    const cursor = cursors.encode(id)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(cursors.decode(cursor)).toBe(id)
  }
})

it('makes the same cursor for an id every time, and another codec with the same secret reads it', () => {
  expect(cursors.encode(41)).toBe(cursors.encode(41))
  expect(createCursorCodec(secret, 'listPets').decode(cursors.encode(41))).toBe(41)
})

it('hides the id it points after', () => {
  const [a, b] = [cursors.encode(7), cursors.encode(8)]
  expect(a).not.toBe(b)
  expect(Buffer.from(a, 'base64url').includes(Buffer.from([0, 0, 0, 7]))).toBe(false)
})

it('rejects cursors made with another secret, altered in any character, or malformed', () => {
  const cursor = cursors.encode(7)
  expect(createCursorCodec('t'.repeat(32), 'listPets').decode(cursor)).toBeUndefined()
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  for (let at = 0; at < cursor.length; at++) {
    const swapped = alphabet[(alphabet.indexOf(cursor[at] as string) + 1) % 64] as string
    const altered = `${cursor.slice(0, at)}${swapped}${cursor.slice(at + 1)}`
    expect(cursors.decode(altered), altered).toBeUndefined()
  }
  for (const bad of [cursor.slice(0, -1), `${cursor}A`, `${cursor}.`, '', '.', 'a'.repeat(22)]) {
    expect(cursors.decode(bad), bad).toBeUndefined()
  }
})

it('still reads the earlier form, payload.HMAC, and rejects it forged or altered', () => {
  const sign = (payload: string, key = secret) =>
    createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url')
  const payload = Buffer.from('{"v":1,"id":20}').toString('base64url')
  const earlier = `${payload}.${sign(payload)}`
  expect(cursors.decode(earlier)).toBe(20)
  const other = Buffer.from('{"v":1,"id":8}').toString('base64url')
  const negative = Buffer.from('{"v":1,"id":-1}').toString('base64url')
  for (const bad of [
    `${other}.${sign(payload)}`,
    `${payload}.${sign(payload, 't'.repeat(32))}`,
    `${negative}.${sign(negative)}`,
    `${payload}.`,
    payload,
    `${earlier}x`,
    `${earlier}.x`,
  ]) {
    expect(cursors.decode(bad), bad).toBeUndefined()
  }
})

it("refuses another listing's cursors: each list operation has its own key", () => {
  // A second list operation, as a spec that adds one has (scripts/test/extend-spec.test.ts).
  const orders = createCursorCodec(secret, 'listOrders' as ListOperationId)
  for (const id of [1, 20, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
    expect(orders.decode(cursors.encode(id)), String(id)).toBeUndefined()
    expect(cursors.decode(orders.encode(id)), String(id)).toBeUndefined()
    expect(orders.decode(orders.encode(id))).toBe(id)
  }
})
