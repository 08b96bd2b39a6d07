import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { hashApiKey, issueApiKey, keyLimits, looksLikeApiKey } from '../../src/auth/api-key.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'

const dir = mkdtempSync(join(tmpdir(), 'petstore-keys-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('stores only the hash and takes plan limits from the spec', async () => {
  const store = openSqliteStore(join(dir, 'keys.db'))
  const { rawKey, record } = await issueApiKey(store.keys, { plan: 'business' })
  expect(looksLikeApiKey(rawKey)).toBe(true)
  expect(record).toMatchObject({ plan: 'business', perMinute: null, perDay: null, name: null })
  expect(keyLimits(record)).toEqual({ perMinute: 1000, perDay: 100000 })
  expect(await store.keys.findActiveByHash(hashApiKey(rawKey))).toEqual(record)
  expect(JSON.stringify(await store.keys.list())).not.toContain(rawKey)
  const second = await issueApiKey(store.keys, { plan: 'business' })
  expect(second.rawKey).not.toBe(rawKey)
  await store.close()
})

it('requires both numbers for enterprise and refuses them elsewhere', async () => {
  const store = openSqliteStore(join(dir, 'enterprise.db'))
  await expect(issueApiKey(store.keys, { plan: 'enterprise', perMinute: 5 })).rejects.toThrow(
    'per-day',
  )
  await expect(
    issueApiKey(store.keys, { plan: 'enterprise', perMinute: 0, perDay: 5 }),
  ).rejects.toThrow('per-minute')
  await expect(issueApiKey(store.keys, { plan: 'pro', perDay: 5 })).rejects.toThrow('enterprise')
  const { record } = await issueApiKey(store.keys, { plan: 'enterprise', perMinute: 5, perDay: 2 })
  expect([record.perMinute, record.perDay]).toEqual([5, 2])
  expect(keyLimits(record)).toEqual({ perMinute: 5, perDay: 2 })
  await store.close()
})

it('recognises only the issued key shape', () => {
  expect(looksLikeApiKey(`psk_live_${'a'.repeat(48)}`)).toBe(true)
  expect(looksLikeApiKey(`psk_live_0123456789abcdef${'9f'.repeat(16)}`)).toBe(true)
  for (const token of [
    '',
    'psk_live_',
    `psk_live_${'a'.repeat(47)}`,
    `psk_live_${'A'.repeat(48)}`,
    `psk_test_${'a'.repeat(48)}`,
    `psk_live_${'a'.repeat(49)}`,
    `psk_live_${'a'.repeat(48)}\n`,
    // Each character just outside 0-9 and a-f, last.
    ...['/', ':', '`', 'g'].map((c) => `psk_live_${'0'.repeat(47)}${c}`),
  ]) {
    expect(looksLikeApiKey(token)).toBe(false)
  }
})
