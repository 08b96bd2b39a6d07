/**
 * Tells the key cache (keys.ts) when any instance or the CLI changed `api_keys`: a trigger
 * (migrations.ts) sends `NOTIFY petstore_api_keys` with the schema name at the commit of every
 * UPDATE, DELETE or TRUNCATE, and one connection per store listens. While that connection is down
 * a change could be missed, so nothing may be cached (`listening` is false); it reconnects by
 * itself. `generation` moves on with every change and every connection loss or gain, so a
 * lookup that raced with a change does not cache what it read.
 * @see https://www.postgresql.org/docs/current/sql-notify.html
 */
import pg from 'pg'

export interface KeyChanges {
  readonly listening: boolean
  readonly generation: number
  /** A change made through this store: seen at once, without waiting for the notification. */
  changed(): void
  close(): Promise<void>
}

const channel = 'petstore_api_keys'
const retryMs = 1000

export function listenForKeyChanges(config: pg.ClientConfig): KeyChanges {
  let listening = false
  let generation = 0
  let closed = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined

  const lost = (from: pg.Client) => {
    if (client !== from) return
    client = undefined
    listening = false
    generation++
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
      candidate.on('notification', (message) => {
        if (message.payload === schema) generation++
      })
      await candidate.query(`LISTEN ${channel}`)
      if (client !== candidate || closed) return
      listening = true
      generation++
    } catch {
      lost(candidate)
    }
  }

  void connect()
  return {
    get listening() {
      return listening
    },
    get generation() {
      return generation
    },
    changed() {
      generation++
    },
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
