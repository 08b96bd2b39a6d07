/**
 * `Store.seed` on PostgreSQL: one transaction holding the table's advisory lock (the group
 * commit's, batching.ts, so ids stay in commit order across instances), the drafts written by the
 * resource's document codec (../documents.ts) and inserted in chunks, one statement each.
 */
import type pg from 'pg'
import { documentCodec } from '../documents.js'
import type { Identified } from '../resource.js'
import { resources } from '../resources.js'
import type { Store } from '../store.js'
import { groupStatements, inLockedTransaction } from './batching.js'
import { guarded } from './connection.js'

/** Drafts per INSERT: bounds one statement's parameter, not the transaction. */
const chunkSize = 10_000

export function postgresSeeder(pool: pg.Pool): Store['seed'] {
  return (name, drafts) =>
    guarded(() => {
      const { table, schema } = resources[name]
      const codec = documentCodec<Identified>(schema)
      const sql = groupStatements(table)
      return inLockedTransaction(pool, sql, async (client) => {
        let count = 0
        let chunk: string[] = []
        const insert = async () => {
          await client.query(sql.insert, [chunk])
          count += chunk.length
          chunk = []
        }
        for (const draft of drafts) {
          chunk.push(codec.encode(draft).text)
          if (chunk.length === chunkSize) await insert()
        }
        if (chunk.length > 0) await insert()
        return count
      })
    })
}
