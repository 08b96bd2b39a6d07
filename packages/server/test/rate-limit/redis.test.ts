import { Redis } from 'ioredis'
import { afterAll, describe } from 'vitest'
import { createRedisRateLimiter } from '../../src/rate-limit/redis.js'
import { redisUrl, serviceAvailable, uniqueName } from '../services.js'
import { limiterConformance } from './conformance.js'

const available = await serviceAvailable('Redis', 'test/rate-limit/redis.test.ts')

describe.runIf(available)('redis', () => {
  const run = uniqueName('test')
  // Day windows would outlive the run on the shared Redis: remove this run's keys.
  afterAll(async () => {
    const redis = new Redis(redisUrl)
    const keys = await redis.keys(`${run}:*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
  })
  limiterConformance('redis', () =>
    createRedisRateLimiter({ url: redisUrl, prefix: `${run}:${uniqueName('l')}:` }),
  )
})
