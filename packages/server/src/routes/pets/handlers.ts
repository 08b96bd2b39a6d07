/**
 * The pet operations, typed by their operations in the spec (http/contract.ts): those of a
 * collection (../collection.ts) on the pets of the store. A pet's status is not its own to
 * change: it moves only through its orders (../orders/handlers.ts), so a patch of it is refused,
 * and a pet with an open order cannot be deleted. Inputs arrive validated, with defaults applied;
 * outputs are serialized by the spec's response schemas, except listPets' page, which the store
 * hands over as JSON text already (Page.json, sent through `preSerialized`).
 */
import type { OperationFacts, PetPatch } from '@petstore/types'
import { problem } from '../../errors.js'
import type { HandledOperationId, OperationRoutes } from '../../http/contract.js'
import { andThen } from '../../maybe-promise.js'
import { resources } from '../../store/resources.js'
import { collection, type RouteDeps } from '../collection.js'
import { openOrderStatuses } from '../orders/transitions.js'

/** The operations on the spec's `/pets` paths: this module answers every one. */
type PetOperationId = {
  [K in HandledOperationId]: OperationFacts[K]['path'] extends `/pets${string}` ? K : never
}[HandledOperationId]

export type PetRoutes = Pick<OperationRoutes, PetOperationId>

export function createPetRoutes(deps: RouteDeps): PetRoutes {
  const pets = collection(deps, { path: '/pets', noun: 'pet' }, deps.store.pets, resources.pets)
  return {
    listPets: { handler: (request) => pets.list(request) },
    createPet: { handler: (request) => pets.create(request), ...pets.createHooks },
    getPet: { handler: (request) => pets.get(request.params.petId, request) },
    updatePet: {
      handler: (request) =>
        pets.patch(request, request.params.petId, (_current, patch: PetPatch, next) => {
          if (patch.status !== undefined) throw problem('statusNotPatchable')
          return next
        }),
    },
    deletePet: {
      handler: (request) =>
        pets.remove(request, request.params.petId, (pet, transaction) =>
          andThen(
            transaction.exists(resources.orders, { petId: [pet.id], status: openOrderStatuses }),
            (open) => {
              if (open) throw problem('petHasOpenOrder', { id: pet.id })
            },
          ),
        ),
    },
  }
}
