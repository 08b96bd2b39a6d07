/**
 * The pet operations, typed by their operations in the spec (http/contract.ts): the three of a
 * collection (../collection.ts) on the pets of the store. Inputs arrive validated, with defaults
 * applied; outputs are serialized by the spec's response schemas, except listPets' page, which
 * the store hands over as JSON text already (Page.json, sent through `preSerialized`).
 */
import type { OperationFacts, Pet } from '@petstore/types'
import { problem } from '../../errors.js'
import type { HandledOperationId, OperationRoutes } from '../../http/contract.js'
import type { Idempotency } from '../../idempotency/idempotency.js'
import { resources } from '../../store/resources.js'
import type { Store } from '../../store/store.js'
import {
  createInCollection,
  getFromCollection,
  idempotentCreateHooks,
  listCollection,
} from '../collection.js'
import type { CursorCodec } from '../cursor.js'

export interface PetRouteDeps {
  store: Store
  /** Cursors bound to listPets (../cursor.ts). */
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
  const collection = {
    store: deps.store.pets,
    definition: resources.pets,
    cursors: deps.cursors,
    idempotency: deps.idempotency,
    url: `${deps.basePath}/pets`,
  }
  const list = listCollection(collection)
  const create = createInCollection<'listPets', Pet>(collection)
  const get = getFromCollection(deps.store.pets, (id) =>
    problem('noSuchPet', { id: Number.isSafeInteger(id) ? String(id) : 'with this id' }),
  )
  return {
    listPets: { handler: (request) => list(request) },
    createPet: {
      handler: (request) => create(request),
      ...idempotentCreateHooks(deps.idempotency),
    },
    getPet: { handler: ({ params }) => get(params.petId) },
  }
}
