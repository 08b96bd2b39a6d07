/**
 * /readyz is unauthenticated and unlimited, so it must cost nothing: it writes nothing to the
 * store (a probe row per call slowed creates by 40% under a flood) and shares one check among
 * the calls of a second.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { configWith } from '../../src/config.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'

it('writes nothing and checks the store once a second for a flood of probes', async (test) => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-health-'))
  const dbPath = join(dir, 'petstore.db')
  const store = openSqliteStore(dbPath)
  let pings = 0
  const app = await buildApp(configWith({ logLevel: 'silent', dbPath }), {
    store: {
      ...store,
      ping: () => {
        pings++
        return store.ping()
      },
    },
  })
  const reader = new Database(dbPath, { readonly: true })
  test.onTestFinished(async () => {
    reader.close()
    await app.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const version = () => reader.pragma('data_version', { simple: true })
  const before = version()
  const replies = await Promise.all(
    Array.from({ length: 500 }, () => app.inject({ method: 'GET', url: '/readyz' })),
  )
  expect(new Set(replies.map((reply) => reply.statusCode))).toEqual(new Set([200]))
  expect(replies[0]?.json()).toEqual({ status: 'ready' })
  // data_version moves when another connection commits: the probes committed nothing.
  expect(version()).toBe(before)
  // One check, shared for a second (two if the flood outlasts that second on a loaded machine).
  expect(pings).toBeLessThanOrEqual(2)
})
