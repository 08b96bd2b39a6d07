import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type CommitMessage, commitChannelName } from '../../src/index.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { Store } from '../../src/store/store.js'
import { postgresUrl, schemaFactory, serviceAvailable } from '../services.js'

/** The messages published while `run` goes on. */
async function published(run: () => Promise<void>): Promise<CommitMessage[]> {
  const messages: CommitMessage[] = []
  const listener = (message: unknown) => messages.push(message as CommitMessage)
  subscribe(commitChannelName, listener)
  try {
    await run()
  } finally {
    unsubscribe(commitChannelName, listener)
  }
  return messages
}

function commitsPublished(system: CommitMessage['system'], open: () => Promise<Store>): void {
  it('publishes each group commit: its writes, when it began and when it was durable', async () => {
    const store = await open()
    try {
      const before = performance.now()
      const messages = await published(async () => {
        // Two groups: eight creates in one turn, then three.
        for (const size of [8, 3]) {
          await Promise.all(
            Array.from({ length: size }, (_, i) =>
              store.pets.create({ name: `Pet ${i}`, categoryId: 1, status: 'available' }),
            ),
          )
        }
      })
      const after = performance.now()
      expect(messages.map((message) => [message.system, message.writes])).toEqual([
        [system, 8],
        [system, 3],
      ])
      for (const { startedAt, durableAt } of messages) {
        expect(startedAt).toBeGreaterThanOrEqual(before)
        expect(durableAt).toBeGreaterThanOrEqual(startedAt)
        expect(durableAt).toBeLessThanOrEqual(after)
      }
    } finally {
      await store.close()
    }
  })
}

describe('commit channel: sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-commit-channel-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  commitsPublished('sqlite', async () => openSqliteStore(join(dir, 'petstore.db')))
})

const available = await serviceAvailable('PostgreSQL', 'test/store/commit-channel.test.ts')

describe.runIf(available)('commit channel: postgresql', () => {
  const schemas = schemaFactory()
  afterAll(() => schemas.dropAll())
  commitsPublished('postgresql', async () =>
    openPostgresStore({ url: postgresUrl, size: 4, schema: await schemas.create() }),
  )
})
