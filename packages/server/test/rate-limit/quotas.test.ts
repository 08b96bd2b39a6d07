import type { Plan } from '@petstore/types'
import { describe, expect, it } from 'vitest'
import type { Caller } from '../../src/auth/caller.js'
import { productionWindows } from '../../src/config.js'
import { createQuotaLookup, formatPolicy } from '../../src/rate-limit/quotas.js'
import type { ApiKeyRecord } from '../../src/store/store.js'

function keyCaller(plan: Plan, perMinute = 0, perDay = 0): Caller {
  const key: ApiKeyRecord = {
    id: `key_${plan}`,
    name: null,
    plan,
    perMinute,
    perDay,
    createdAt: '2026-01-01T00:00:00.000Z',
    revokedAt: null,
  }
  return { kind: 'key', key }
}

describe('createQuotaLookup', () => {
  const quotasFor = createQuotaLookup(productionWindows)

  it.each([
    ['free', '"minute";q=60;w=60, "day";q=1000;w=86400'],
    ['pro', '"minute";q=300;w=60, "day";q=10000;w=86400'],
    ['business', '"minute";q=1000;w=60, "day";q=100000;w=86400'],
  ] as const)('limits %s keys by the plan in the spec', (plan, policy) => {
    const quotas = quotasFor(keyCaller(plan))
    expect(quotas.policy).toBe(policy)
    expect(quotas.windows.map((w) => w.name)).toEqual(['minute', 'day'])
  })

  it('limits callers without a valid key at the free plan', () => {
    expect(quotasFor({ kind: 'ip', ip: '127.0.0.1' })).toBe(quotasFor(keyCaller('free')))
  })

  it("limits enterprise keys by the key's own numbers, the day possibly below the minute", () => {
    const quotas = quotasFor(keyCaller('enterprise', 500, 200))
    expect(quotas.windows).toEqual([
      { name: 'minute', limit: 500, seconds: 60 },
      { name: 'day', limit: 200, seconds: 86_400 },
    ])
    expect(quotas.policy).toBe('"minute";q=500;w=60, "day";q=200;w=86400')
  })

  it('builds each quota set once', () => {
    expect(quotasFor(keyCaller('pro'))).toBe(quotasFor(keyCaller('pro')))
    expect(quotasFor(keyCaller('enterprise', 3, 9))).toBe(quotasFor(keyCaller('enterprise', 3, 9)))
  })

  it('uses the window lengths it is given', () => {
    const short = createQuotaLookup({ minuteSeconds: 2, daySeconds: 5 })
    expect(short({ kind: 'ip', ip: '::1' }).policy).toBe('"minute";q=60;w=2, "day";q=1000;w=5')
  })
})

describe('formatPolicy', () => {
  it('writes one structured-field item per window', () => {
    expect(formatPolicy([{ name: 'minute', limit: 3, seconds: 60 }])).toBe('"minute";q=3;w=60')
  })
})
