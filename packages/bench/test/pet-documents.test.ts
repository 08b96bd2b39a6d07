/**
 * The ceilings work on the service's formats: a create stores the document the service stores
 * and answers the bytes it answers, a page is the service's page byte for byte, and the
 * contract ceiling's cursors are the service's codec (under the ceiling's secret). Each fails
 * when the bench and the service drift apart.
 */
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { startPetstore } from '@petstore/server'
import { createCursorCodec } from '@petstore/server/internal/cursor'
import type { NewPet, Pet } from '@petstore/types'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ContractCeiling, createContractCeiling } from '../src/ceilings/contract.js'
import { contractCursorSecret, createContractCursors } from '../src/ceilings/contract-cursor.js'
import { draftDocument, pageJson, petJson } from '../src/pet-documents.js'
import { nextCursor } from '../src/probe.js'
import { seedPets, workspaceServer } from '../src/seed.js'
import { bearer } from '../src/workloads.js'
import { closeServer, createKeyedDatabase, listen, tempDir } from './helpers.js'

describe('the ceilings against the service', () => {
  const temp = tempDir()
  const servicePath = join(temp.dir, 'service.db')
  const ceilingPath = join(temp.dir, 'ceiling.db')
  let service: Awaited<ReturnType<typeof startPetstore>>
  let ceiling: ContractCeiling
  let ceilingUrl = ''
  let key = ''
  beforeAll(async () => {
    key = await createKeyedDatabase(servicePath)
    await seedPets(workspaceServer, servicePath, { count: 45, soldTail: 5 })
    copyFileSync(servicePath, ceilingPath)
    service = await startPetstore({ dbPath: servicePath })
    ceiling = createContractCeiling(ceilingPath, join(temp.dir, 'ceiling.log'))
    ceilingUrl = await listen(ceiling.server)
  })
  afterAll(async () => {
    await service?.close()
    if (ceiling !== undefined) {
      await closeServer(ceiling.server)
      await ceiling.close()
    }
    temp.remove()
  })

  const get = (base: string, path: string) => fetch(`${base}${path}`, { headers: bearer(key) })
  const create = (base: string, body: NewPet) =>
    fetch(`${base}/v1/pets`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('answer pages and pets with the service’s bytes', async () => {
    for (const path of ['/v1/pets?limit=20', '/v1/pets?limit=3&status=sold', '/v1/pets/7']) {
      const [ours, theirs] = await Promise.all([get(ceilingUrl, path), get(service.url, path)])
      expect(ours.status).toBe(200)
      expect(await ours.text()).toBe(await theirs.text())
    }
  })

  it('store and answer a create as the service does, NewPet’s defaults filled in', async () => {
    // Property order unlike the schema's, and `status` left to its default.
    const draft = { categoryId: 4, name: 'Ünïcødé "Rex"' } as NewPet
    const [ours, theirs] = await Promise.all([
      create(ceilingUrl, draft),
      create(service.url, draft),
    ])
    expect([ours.status, theirs.status]).toEqual([201, 201])
    const [ourBody, theirBody] = [await ours.text(), await theirs.text()]
    expect(ourBody).toBe(theirBody)
    const { id } = JSON.parse(theirBody) as Pet
    const stored = (path: string) => {
      const db = new Database(path, { readonly: true })
      try {
        return db.prepare('SELECT doc FROM pets WHERE id = ?').pluck().get(id)
      } finally {
        db.close()
      }
    }
    expect(stored(ceilingPath)).toBe(stored(servicePath))
    expect(stored(servicePath)).toBe(draftDocument(draft))
    expect(petJson(id, draftDocument(draft))).toBe(theirBody)
  })

  it('page by the service’s cursors, under the ceiling’s own secret', async () => {
    const [ours, theirs] = await Promise.all([
      get(ceilingUrl, '/v1/pets?limit=20'),
      get(service.url, '/v1/pets?limit=20'),
    ])
    const ourCursor = nextCursor(ours.headers.get('link') ?? '') as string
    const theirCursor = nextCursor(theirs.headers.get('link') ?? '') as string
    expect(ourCursor).toBeDefined()
    expect(theirCursor).toBeDefined()
    // Each decodes with the server's codec under its own secret, to the same position.
    const db = new Database(servicePath, { readonly: true })
    const secret = db
      .prepare("SELECT value FROM settings WHERE name = 'cursor-secret'")
      .pluck()
      .get() as string
    db.close()
    expect(createCursorCodec(secret, 'listPets').decode(theirCursor)).toBe(20)
    expect(createCursorCodec(contractCursorSecret, 'listPets').decode(ourCursor)).toBe(20)
    expect(ourCursor).toHaveLength(theirCursor.length)
    // The cursors the bench writes for the ceiling's cold walks are the ones it accepts.
    const page = await get(
      ceilingUrl,
      `/v1/pets?limit=20&cursor=${createContractCursors().encode(20)}`,
    )
    const next = await get(service.url, `/v1/pets?limit=20&cursor=${theirCursor}`)
    expect(await page.text()).toBe(await next.text())
  })
})

describe('the ceilings’ JSON', () => {
  it('splices the id before a document as JSON.stringify writes the pet', () => {
    const pets: Pet[] = [
      { id: 1, name: 'Pet 5', categoryId: 6, status: 'sold' },
      { id: 2, name: 'Rex "the dog"', categoryId: 1, status: 'available' },
    ]
    const rows = pets.map(({ id, ...draft }) => ({ id, doc: JSON.stringify(draft) }))
    expect(pageJson(rows)).toBe(JSON.stringify(pets))
    expect(pageJson([])).toBe('[]')
    expect(petJson(3, '{}')).toBe('{"id":3}')
  })
})
