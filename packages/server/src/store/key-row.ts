/**
 * How both SQL stores keep an API key: one row per key, columns in snake case. Only enterprise
 * keys carry numbers; fixed plans are read from the spec at request time.
 */
import type { Plan } from '@petstore/types'
import type { ApiKeyRecord } from './store.js'

export interface KeyRow {
  id: string
  name: string | null
  plan: Plan
  per_minute: number | null
  per_day: number | null
  created_at: string
  revoked_at: string | null
}

export const keyColumns = 'id, name, plan, per_minute, per_day, created_at, revoked_at'

export function toKeyRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    perMinute: row.per_minute,
    perDay: row.per_day,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }
}
