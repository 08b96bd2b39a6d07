import { expect, it } from 'vitest'
import { newIdempotencyKey } from '../src/idempotency-key.js'

it('makes distinct UUID v4 keys that fit the header pattern of the spec', () => {
  const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()))
  expect(keys.size).toBe(100)
  for (const key of keys) {
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(`"${key}"`).toMatch(/^(?:[!#-~][!-~]{0,254}|"[ !#-[\]-~]{1,255}")$/)
  }
})
