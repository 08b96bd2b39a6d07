/**
 * Trace and span ids cut from a pool of random hex text. Every request gets both ids, sampled or
 * not: an unsampled one still passes its trace on and names it in its log line. The SDK's own
 * generator writes `Math.random()` into a buffer and hex-encodes it for each id, the largest
 * part of what tracing costs a request it does not sample. Here one `randomFillSync` and one
 * hex encoding serve 256 requests, and the ids come from the system's cryptographic generator.
 * @see https://www.w3.org/TR/trace-context/#considerations-for-trace-id-field-generation
 */
import { randomFillSync } from 'node:crypto'
import type { IdGenerator } from '@opentelemetry/sdk-trace-base'

/** Bytes drawn at a time: 256 trace ids and their span ids. */
const poolBytes = 256 * (16 + 8)
const zeroTraceId = '0'.repeat(32)
const zeroSpanId = '0'.repeat(16)

/**
 * Ids drawn from `fill` (the system's generator; tests give their own).
 *
 * @example
 * ```ts
 * new BasicTracerProvider({ idGenerator: pooledIdGenerator() })
 * ```
 */
export function pooledIdGenerator(fill: (bytes: Buffer) => void = randomFillSync): IdGenerator {
  const bytes = Buffer.alloc(poolBytes)
  let hex = ''
  let used = 0
  /** The next `length` hex digits; all zeros is no valid id, and is drawn again. */
  const next = (length: number, invalid: string): string => {
    if (used + length > hex.length) {
      fill(bytes)
      hex = bytes.toString('hex')
      used = 0
    }
    const id = hex.slice(used, used + length)
    used += length
    return id === invalid ? next(length, invalid) : id
  }
  return {
    generateTraceId: () => next(32, zeroTraceId),
    generateSpanId: () => next(16, zeroSpanId),
  }
}
