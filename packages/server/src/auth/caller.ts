import type { ApiKeyRecord } from '../store/store.js'

/**
 * Who a `/v1` request counts against: its valid API key, else its client IP at the free plan.
 * Set on the request before rate limiting and before the 401 check.
 */
export type Caller = { kind: 'key'; key: ApiKeyRecord } | { kind: 'ip'; ip: string }
