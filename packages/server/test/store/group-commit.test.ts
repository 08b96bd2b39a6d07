/**
 * Group commit on a real SQLite file: a group is one transaction, a failing write rejects alone,
 * and a refused file fails the group as one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createGroupCommit } from '../../src/store/sqlite/group-commit.js'

let dir: string
let db: Database.Database
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-group-'))
  db = new Database(join(dir, 'group.db'))
  db.exec('CREATE TABLE t (name TEXT PRIMARY KEY)')
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const names = () => db.prepare('SELECT name FROM t ORDER BY name').pluck().all()

it('commits the writes of one turn in one transaction, each run once', async () => {
  const writes = createGroupCommit(db)
  const insert = db.prepare('INSERT INTO t (name) VALUES (?)')
  let runs = 0
  const inTransaction: boolean[] = []
  const results = await Promise.all(
    ['a', 'b', 'c'].map((name) =>
      writes.run(() => {
        runs++
        inTransaction.push(db.inTransaction)
        return insert.run(name).changes
      }),
    ),
  )
  expect(results).toEqual([1, 1, 1])
  expect(runs).toBe(3)
  expect(inTransaction).toEqual([true, true, true])
  expect(names()).toEqual(['a', 'b', 'c'])
})

it('rejects a failing write alone and commits the others of its group', async () => {
  const writes = createGroupCommit(db)
  const insert = db.prepare('INSERT INTO t (name) VALUES (?)')
  const settled = await Promise.allSettled(
    ['a', 'dup', 'dup', 'b'].map((name) => writes.run(() => insert.run(name).changes)),
  )
  expect(settled.map((result) => result.status)).toEqual([
    'fulfilled',
    'fulfilled',
    'rejected',
    'fulfilled',
  ])
  expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint/)
  expect(names()).toEqual(['a', 'b', 'dup'])
  expect(writes.lastFailure()).toBeUndefined()
})

it('fails the whole group when the file refuses it, and says so', async () => {
  const writes = createGroupCommit(db)
  const insert = db.prepare('INSERT INTO t (name) VALUES (?)')
  // Another connection holds the write lock past the busy timeout: SQLITE_BUSY.
  db.pragma('busy_timeout = 50')
  const other = new Database(join(dir, 'group.db'))
  other.exec('BEGIN IMMEDIATE')
  const settled = await Promise.allSettled(
    ['a', 'b'].map((name) => writes.run(() => insert.run(name).changes)),
  )
  other.exec('ROLLBACK')
  other.close()
  expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected'])
  expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i)
  expect(writes.lastFailure()).toBeDefined()
  expect(names()).toEqual([])
})
