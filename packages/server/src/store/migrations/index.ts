/**
 * Schema migrations, applied in order at start. Append only: a released migration is never
 * edited, a change is a new entry. SQLite tracks the applied count in `PRAGMA user_version`.
 */
import { initial } from './001-initial.js'

export interface Migration {
  name: string
  sql: string
}

export const migrations: readonly Migration[] = [{ name: '001-initial', sql: initial }]
