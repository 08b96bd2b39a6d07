/**
 * Tells the caches of a store (keys.ts, ../cache.ts) when any instance, the CLI or an
 * operator's hand-written SQL changed their table: triggers (migrations.ts, ../migrations.ts'
 * `resourceTable`) send `NOTIFY petstore_<table>` with the schema name at the commit of every
 * UPDATE, DELETE or TRUNCATE of `api_keys` and of each resource's table, and one connection per
 * store listens to every channel. While that
 * connection is down a change could be missed, so nothing may be cached (`listening` is false);
 * it reconnects by itself. Each table's `generation` moves on with every change to it and with
 * every connection loss or gain, so a read that raced with a change does not cache what it read.
 * @see https://www.postgresql.org/docs/current/sql-notify.html
 */
import pg from 'pg'
import type { TableChanges } from '../changes.js'
import { resourceTables } from '../resources.js'

/** The tables a store's caches follow: the API keys and every resource's. */
export const changedTables = ['api_keys', ...resourceTables]

export interface TableChangeListener {
  /** The changes of each table listened to, by table name. */
  readonly tables: Readonly<Record<string, TableChanges>>
  close(): Promise<void>
}

const channelPrefix = 'petstore_'
const retryMs = 1000

/** Listens to the changes of `tables`, each announced on channel `petstore_<table>`. */
export function listenForTableChanges(
  config: pg.ClientConfig,
  tables: readonly string[],
): TableChangeListener {
  let listening = false
  /** Moves on with every connection loss or gain: added to every channel's count of changes. */
  let connections = 0
  const counts = new Map<string, number>(tables.map((table) => [`${channelPrefix}${table}`, 0]))
  let closed = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined

  const lost = (from: pg.Client) => {
    if (client !== from) return
    client = undefined
    listening = false
    connections++
    from.end().catch(() => {})
    if (!closed) retry = setTimeout(connect, retryMs).unref()
  }

  async function connect(): Promise<void> {
    const candidate = new pg.Client(config)
    client = candidate
    candidate.on('error', () => lost(candidate))
    candidate.on('end', () => lost(candidate))
    try {
      await candidate.connect()
      const { rows } = await candidate.query<{ schema: string }>(
        'SELECT current_schema() AS schema',
      )
      const schema = rows[0]?.schema
      candidate.on('notification', ({ channel, payload }) => {
        const count = counts.get(channel)
        if (payload === schema && count !== undefined) counts.set(channel, count + 1)
      })
      await candidate.query([...counts.keys()].map((channel) => `LISTEN ${channel};`).join(''))
      if (client !== candidate || closed) return
      listening = true
      connections++
    } catch {
      lost(candidate)
    }
  }

  const table = (name: string): TableChanges => {
    const channel = `${channelPrefix}${name}`
    return {
      get listening() {
        return listening
      },
      get generation() {
        return connections + (counts.get(channel) ?? 0)
      },
      changed() {
        counts.set(channel, (counts.get(channel) ?? 0) + 1)
      },
    }
  }

  void connect()
  return {
    tables: Object.fromEntries(tables.map((name) => [name, table(name)])),
    async close() {
      closed = true
      clearTimeout(retry)
      listening = false
      const last = client
      client = undefined
      await last?.end().catch(() => {})
    },
  }
}
