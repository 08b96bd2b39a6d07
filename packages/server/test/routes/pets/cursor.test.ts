import { expect, it } from 'vitest'
import { createCursorCodec } from '../../../src/routes/pets/cursor.js'

const cursors = createCursorCodec('s'.repeat(32))

it('round-trips ids in the spec cursor alphabet', () => {
  for (const id of [0, 1, 20, Number.MAX_SAFE_INTEGER]) {
    const cursor = cursors.encode(id)
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/)
    expect(cursors.decode(cursor)).toBe(id)
  }
})

it('rejects cursors signed with another secret, altered or malformed', () => {
  const cursor = cursors.encode(7)
  expect(createCursorCodec('t'.repeat(32)).decode(cursor)).toBeUndefined()
  const [payload, tag] = cursor.split('.') as [string, string]
  const other = Buffer.from('{"v":1,"id":8}').toString('base64url')
  for (const bad of [
    `${other}.${tag}`,
    `${payload}.`,
    payload,
    `${cursor}x`,
    `${payload}.${tag}.x`,
    '',
    '.',
  ]) {
    expect(cursors.decode(bad), bad).toBeUndefined()
  }
})

it('keeps answering right once more cursors were made than it remembers', () => {
  const codec = createCursorCodec('u'.repeat(32))
  const ids = Array.from({ length: 10_000 }, (_, id) => id)
  const made = ids.map((id) => codec.encode(id))
  expect(made.map((cursor) => codec.decode(cursor))).toEqual(ids)
  expect(cursors.decode(made[5] as string)).toBeUndefined()
  expect(codec.encode(5)).toBe(made[5])
})
