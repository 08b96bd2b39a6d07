import { createMemoryRateLimiter } from '../../src/rate-limit/memory.js'
import { describeRateLimiterConformance } from './conformance.js'

describeRateLimiterConformance('memory', () => createMemoryRateLimiter())
