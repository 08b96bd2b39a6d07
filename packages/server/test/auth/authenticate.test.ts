/**
 * Who a request counts against, on a real SQLite key store: a key the cache holds is taken at
 * once (no look at its shape), a token that is not shaped like an issued key never reaches
 * the store, cached or not, and the header's other spellings find the key as the usual one does.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { issueApiKey } from '../../src/auth/api-key.js'
import { createCallerIdentifier } from '../../src/auth/authenticate.js'
import { isPromise } from '../../src/maybe-promise.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { KeyStore } from '../../src/store/store.js'

const dir = mkdtempSync(join(tmpdir(), 'petstore-authenticate-'))
const store = openSqliteStore(join(dir, 'keys.db'))
let rawKey = ''
/** The hashes the store was asked for, through the real store. */
const lookedUp: string[] = []
const keys: KeyStore = {
  ...store.keys,
  findActiveByHash(hash) {
    lookedUp.push(hash)
    return store.keys.findActiveByHash(hash)
  },
}
const identify = createCallerIdentifier(keys)
const request = (authorization?: string) => ({
  headers: authorization === undefined ? {} : { authorization },
  ip: '192.0.2.7',
})

beforeAll(async () => {
  rawKey = (await issueApiKey(store.keys, { plan: 'pro' })).rawKey
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

it('finds an issued key in the store, then at once from the cache', async () => {
  const first = identify(request(`Bearer ${rawKey}`))
  expect(isPromise(first)).toBe(true)
  expect(await first).toMatchObject({ kind: 'key', key: { plan: 'pro' } })
  expect(lookedUp).toHaveLength(1)
  const again = identify(request(`Bearer ${rawKey}`))
  expect(isPromise(again)).toBe(false)
  expect(again).toMatchObject({ kind: 'key', key: { plan: 'pro' } })
  expect(lookedUp).toHaveLength(1)
})

it('counts a token not shaped like an issued key by IP, without asking the store', async () => {
  lookedUp.length = 0
  for (const token of [
    rawKey.toUpperCase(),
    rawKey.replace('psk_live_', 'psk_test_'),
    `${rawKey.slice(0, -1)}g`,
    rawKey.slice(0, -1),
    `${rawKey}0`,
  ]) {
    expect(await identify(request(`Bearer ${token}`))).toEqual({ kind: 'ip', ip: '192.0.2.7' })
  }
  expect(await identify(request())).toEqual({ kind: 'ip', ip: '192.0.2.7' })
  expect(lookedUp).toEqual([])
})

it('reads the scheme in any case and blanks around the token, and refuses a token with one inside', async () => {
  const asKey = { kind: 'key', key: { plan: 'pro' } }
  const byIp = { kind: 'ip', ip: '192.0.2.7' }
  // The first is the header as clients write it, cut without the regular expression; the
  // others are matched by it. Each spelling is the same length or longer.
  for (const header of [
    `Bearer ${rawKey}`,
    `bearer ${rawKey}`,
    `BEARER\t${rawKey}`,
    `Bearer  ${rawKey}`,
    `Bearer ${rawKey} \t`,
  ]) {
    expect(await identify(request(header)), header).toMatchObject(asKey)
  }
  lookedUp.length = 0
  // The length of the usual header, with a blank inside or around a token one character short.
  for (const header of [
    `Bearer ${rawKey.slice(0, 20)} ${rawKey.slice(21)}`,
    `Bearer  ${rawKey.slice(1)}`,
    `Bearer ${rawKey.slice(1)} `,
    `Bearer ${rawKey.slice(0, 2)}\t${rawKey.slice(3)}`,
    `Bearer_${rawKey}`,
  ]) {
    expect(await identify(request(header)), JSON.stringify(header)).toEqual(byIp)
  }
  expect(lookedUp).toEqual([])
})
