/**
 * `petstore_rate_limit_refusals_total` around the real rate-limit hook and an in-memory limiter:
 * each 429 counted once by reason and plan (`none` for a caller limited per IP), nothing else.
 */
import pino from 'pino'
import { Counter, Registry } from 'prom-client'
import { expect, it } from 'vitest'
import type { Caller } from '../../src/auth/caller.js'
import { configWith } from '../../src/config.js'
import { countRefusals } from '../../src/metrics/rate-limit.js'
import { createRateLimitHook } from '../../src/rate-limit/hook.js'
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.js'

const keyCaller = (plan: 'pro' | 'enterprise', perMinute: number | null): Caller => ({
  kind: 'key',
  key: {
    id: `key_${plan}`,
    name: null,
    plan,
    perMinute,
    perDay: perMinute === null ? null : 1_000,
    createdAt: '2026-01-01T00:00:00.000Z',
    revokedAt: null,
  },
})

it('counts each refusal by reason and plan, and passes every decision through', async () => {
  const registry = new Registry()
  const refusals = new Counter({
    name: 'refusals_total',
    help: 'help',
    labelNames: ['reason', 'plan'],
    registers: [registry],
  })
  const limiter = createMemoryRateLimiter()
  const hook = countRefusals(
    createRateLimitHook(limiter, configWith({ banThreshold: 2, banSeconds: 60 })),
    refusals,
  )
  const request = { log: pino({ level: 'silent' }) }
  const sink = { header: () => undefined }
  const outcome = async (caller: Caller) => {
    try {
      await hook(request, sink, caller)
      return 'allowed'
    } catch (error) {
      return (error as { code: string }).code
    }
  }
  try {
    const enterprise = keyCaller('enterprise', 1)
    const seen: string[] = []
    for (let i = 0; i < 5; i++) seen.push(await outcome(enterprise))
    // One allowed, one limited, and the second request while limited starts the ban.
    expect(seen).toEqual([
      'allowed',
      'rate_limited',
      'api_key_banned',
      'api_key_banned',
      'api_key_banned',
    ])
    const anonymous: Caller = { kind: 'ip', ip: '192.0.2.1' }
    const perIp: string[] = []
    for (let i = 0; i < 61; i++) perIp.push(await outcome(anonymous))
    expect(perIp.filter((entry) => entry === 'rate_limited')).toHaveLength(1)
    expect(await outcome(keyCaller('pro', null))).toBe('allowed')
    const values = (await refusals.get()).values.map(({ labels, value }) => [
      `${labels.reason} ${labels.plan}`,
      value,
    ])
    expect(Object.fromEntries(values)).toEqual({
      'rate_limited enterprise': 1,
      'api_key_banned enterprise': 3,
      'rate_limited none': 1,
    })
  } finally {
    await limiter.close()
  }
})
