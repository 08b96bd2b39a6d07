import type { Plan } from '@petstore/types'

/** An API key as the service knows it: never the raw key, which is stored only as a hash. */
export interface ApiKeyRecord {
  id: string
  name: string | null
  plan: Plan
  /** Requests allowed per minute window. */
  perMinute: number
  /** Requests allowed per day window. */
  perDay: number
  /** ISO 8601 timestamp. */
  createdAt: string
  /** ISO 8601 timestamp, or null while the key is valid. */
  revokedAt: string | null
}

/**
 * Who a `/v1` request counts against: its valid API key, else its client IP at the free plan.
 * Set on the request before rate limiting and before the 401 check.
 */
export type Caller = { kind: 'key'; key: ApiKeyRecord } | { kind: 'ip'; ip: string }
