/**
 * The pet operations, typed by their operations in the spec (http/contract.ts). Inputs
 * arrive validated, with defaults applied; outputs are serialized by the spec's response
 * schemas, except listPets' page, which the store hands over as JSON text already
 * (PetPage.json, sent through `preSerialized`).
 */
import type { OperationFacts, Pet, Pets } from '@petstore/types'
import { problem } from '../../errors.js'
import {
  type HandledOperationId,
  type OperationRoutes,
  preSerialized,
} from '../../http/contract.js'
import type { Idempotency } from '../../idempotency/idempotency.js'
import type { Store, StoredResponse } from '../../store/store.js'
import type { CursorCodec } from './cursor.js'

export interface PetRouteDeps {
  store: Store
  cursors: CursorCodec
  idempotency: Idempotency
  /** e.g. `/v1`: prefix of Location and Link URLs. */
  basePath: string
}

/** The operations on the spec's `/pets` paths: this module answers every one. */
type PetOperationId = {
  [K in HandledOperationId]: OperationFacts[K]['path'] extends `/pets${string}` ? K : never
}[HandledOperationId]

export type PetRoutes = Pick<OperationRoutes, PetOperationId>

export function createPetRoutes(deps: PetRouteDeps): PetRoutes {
  const { store, cursors, idempotency, basePath } = deps
  const petsPath = `${basePath}/pets`

  return {
    listPets: {
      async handler({ query }) {
        let afterId: number | undefined
        if (query.cursor !== undefined) {
          afterId = cursors.decode(query.cursor)
          if (afterId === undefined) return problem('invalidCursor')
        }
        const page = await store.pets.list({ limit: query.limit, status: query.status, afterId })
        const body = preSerialized<Pets>(page.json)
        if (!page.hasMore || page.lastId === undefined) return { status: 200, body }
        const status = query.status === undefined ? '' : `&status=${query.status}`
        const next = `${petsPath}?limit=${query.limit}${status}&cursor=${cursors.encode(page.lastId)}`
        return { status: 200, body, headers: { Link: `<${next}>; rel="next"` } }
      },
    },

    createPet: {
      async handler(request) {
        const { body } = request
        const held = request.idempotency
        const fingerprint = held === null ? '' : idempotency.fingerprint(body)
        if (held?.state === 'completed') {
          if (held.fingerprint !== fingerprint) return problem('idempotencyKeyReused')
          // The stored answer to the first request with this key, marked as a replay.
          const pet = JSON.parse(held.response.body) as Pet
          const headers = {
            Location: `${petsPath}/${pet.id}`,
            'Idempotent-Replayed': 'true',
          } as const
          return { status: 201, body: pet, headers }
        }
        const respond = (pet: Pet): StoredResponse => ({
          status: 201,
          body: JSON.stringify(pet),
          headers: { location: `${petsPath}/${pet.id}` },
        })
        const draft = { name: body.name, categoryId: body.categoryId, status: body.status }
        const pet =
          held?.state === 'claimed'
            ? await store.pets.create(draft, {
                scope: held.scope,
                key: held.key,
                fingerprint,
                respond,
              })
            : await store.pets.create(draft)
        idempotency.completed(request)
        return { status: 201, body: pet, headers: { Location: `${petsPath}/${pet.id}` } }
      },
      onRequest: [async (request) => idempotency.claim(request)],
      onResponse: [async (request) => idempotency.release(request)],
      onRequestAbort: [async (request) => idempotency.release(request)],
    },

    getPet: {
      async handler({ params: { petId } }) {
        const pet = await store.pets.get(petId)
        if (pet !== undefined) return { status: 200, body: pet }
        return problem('noSuchPet', {
          id: Number.isSafeInteger(petId) ? String(petId) : 'with this id',
        })
      },
    },
  }
}
