/**
 * The pooled trace and span ids: W3C's shapes (lower-case hex, 32 and 16 digits, never all
 * zeros), different across refills of the pool, and drawn again when the bytes are all zero.
 */
import { randomFillSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pooledIdGenerator } from '../../src/tracing/ids.js'

describe('pooledIdGenerator', () => {
  it('gives distinct trace and span ids of the W3C shape, pool after pool', () => {
    const ids = pooledIdGenerator()
    const traceIds = new Set<string>()
    const spanIds = new Set<string>()
    // 10,000 requests' ids: the pool is drawn again about 40 times.
    for (let i = 0; i < 10_000; i++) {
      const traceId = ids.generateTraceId()
      const spanId = ids.generateSpanId()
      expect(traceId).toMatch(/^[0-9a-f]{32}$/)
      expect(spanId).toMatch(/^[0-9a-f]{16}$/)
      traceIds.add(traceId)
      spanIds.add(spanId)
    }
    expect(traceIds.size).toBe(10_000)
    expect(spanIds.size).toBe(10_000)
  })

  it('skips digits that are all zero, which no valid id is', () => {
    let fills = 0
    // The first pool is all zeros, the next ones random.
    const ids = pooledIdGenerator((bytes) => {
      if (fills++ === 0) bytes.fill(0)
      else randomFillSync(bytes)
    })
    const traceId = ids.generateTraceId()
    const spanId = ids.generateSpanId()
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(traceId).not.toBe('0'.repeat(32))
    expect(spanId).not.toBe('0'.repeat(16))
    expect(fills).toBe(2)
  })
})
