/**
 * The pet operations, typed by their operations in the spec (http/contract.ts): the three of a
 * collection (../collection.ts) on the pets of the store. Inputs arrive validated, with defaults
 * applied; outputs are serialized by the spec's response schemas, except listPets' page, which
 * the store hands over as JSON text already (Page.json, sent through `preSerialized`).
 */
import type { OperationFacts } from '@petstore/types'
import type { HandledOperationId, OperationRoutes } from '../../http/contract.js'
import { resources } from '../../store/resources.js'
import { collection, type RouteDeps } from '../collection.js'

/** The operations on the spec's `/pets` paths: this module answers every one. */
type PetOperationId = {
  [K in HandledOperationId]: OperationFacts[K]['path'] extends `/pets${string}` ? K : never
}[HandledOperationId]

export type PetRoutes = Pick<OperationRoutes, PetOperationId>

export function createPetRoutes(deps: RouteDeps): PetRoutes {
  const place = { list: 'listPets', path: '/pets', noun: 'pet' } as const
  const pets = collection(deps, place, deps.store.pets, resources.pets)
  return {
    listPets: { handler: (request) => pets.list(request) },
    createPet: { handler: (request) => pets.create(request), ...pets.createHooks },
    getPet: { handler: ({ params }) => pets.get(params.petId) },
  }
}
