import { describe, expect, it } from 'vitest'
import type { WindowQuota } from '../../src/rate-limit/limiter.js'
import { createMemoryRateLimiter } from '../../src/rate-limit/memory.js'
import { limiterConformance, past } from './conformance.js'

limiterConformance('memory', () => createMemoryRateLimiter())

describe.concurrent('memory rate limiter: forgetting', () => {
  const windows: WindowQuota[] = [
    { name: 'minute', limit: 1, seconds: 1 },
    { name: 'day', limit: 100, seconds: 1 },
  ]

  async function consumeAll(
    limiter: ReturnType<typeof createMemoryRateLimiter>,
    prefix: string,
    count: number,
  ): Promise<void> {
    for (let i = 0; i < count; i++) await limiter.consume(`${prefix}${i}`, windows)
  }

  it('drops subjects whose windows have all ended as new subjects arrive', async () => {
    const limiter = createMemoryRateLimiter()
    try {
      await consumeAll(limiter, 'ip:old-', 1000)
      expect(limiter.subjects).toBe(1000)
      await past(1)
      await consumeAll(limiter, 'ip:new-', 1000)
      // Without forgetting it would hold 2000; the old thousand are gone.
      expect(limiter.subjects).toBe(1000)
    } finally {
      await limiter.close()
    }
  })

  it('keeps a banned subject whose windows have ended until its ban does', async () => {
    const limiter = createMemoryRateLimiter()
    try {
      const ban = { threshold: 1, seconds: 30 }
      await limiter.consume('k', windows, ban)
      expect((await limiter.consume('k', windows, ban)).banStarted).toBe(true)
      await past(1)
      await consumeAll(limiter, 'ip:other-', 100)
      const after = await limiter.consume('k', windows, ban)
      expect(after.outcome).toBe('banned')
      expect(after.banStarted).toBe(false)
    } finally {
      await limiter.close()
    }
  })
})
