/**
 * The store orders (`/store/orders`): a collection (../collection.ts) of the caller's orders,
 * whose writes move their pets along in the same transaction (transitions.ts): placing an order
 * takes an `available` pet (`pending`), delivering it sells the pet, cancelling it makes the pet
 * `available` again. Of concurrent orders for one pet exactly one is placed: each reads the pet
 * locked in its transaction, so the later ones see it `pending`.
 */
import type { NewOrder, OperationFacts, Order, OrderPatch, OrderStatus, Pet } from '@petstore/types'
import { problem } from '../../errors.js'
import type { HandledOperationId, OperationRoutes } from '../../http/contract.js'
import { andThen } from '../../maybe-promise.js'
import type { Transaction } from '../../store/resource.js'
import { resources } from '../../store/resources.js'
import { collection, type RouteDeps } from '../collection.js'
import { canMove, orderablePetStatus, petStatusOnOrder, refusalOf } from './transitions.js'

/** The operations on the spec's `/store/orders` paths: this module answers every one. */
type OrderOperationId = {
  [K in HandledOperationId]: OperationFacts[K]['path'] extends `/store/orders${string}` ? K : never
}[HandledOperationId]

export type OrderRoutes = Pick<OperationRoutes, OrderOperationId>

/** The order's pet set to the status the order's new status implies, if any. */
function movePet(transaction: Transaction, petId: number, status: OrderStatus) {
  const next = petStatusOnOrder[status]
  if (next === undefined) return undefined
  return andThen(transaction.read(resources.pets, petId), (pet) =>
    pet === undefined ? undefined : transaction.replace(resources.pets, { ...pet, status: next }),
  )
}

/** Takes the order's pet: `404` when there is none, `409` unless it is available. */
function takePet(transaction: Transaction, petId: number) {
  return andThen(transaction.read(resources.pets, petId), (pet: Pet | undefined) => {
    if (pet === undefined) throw problem('unknownId', { resource: 'pet', id: String(petId) })
    if (pet.status !== orderablePetStatus) {
      throw problem('petNotAvailable', { id: petId, status: pet.status })
    }
    return movePet(transaction, petId, 'placed')
  })
}

export function createOrderRoutes(deps: RouteDeps): OrderRoutes {
  const now = deps.now ?? Date.now
  const orders = collection(
    deps,
    { path: '/store/orders', noun: 'order' },
    deps.store.orders,
    resources.orders,
  )
  return {
    listOrders: { handler: (request) => orders.list(request) },
    placeOrder: {
      handler: (request) =>
        orders.create(request, {
          draft: ({ petId }: NewOrder) => {
            const at = new Date(now()).toISOString()
            return { petId, status: 'placed', placedAt: at, updatedAt: at }
          },
          within:
            ({ petId }: NewOrder) =>
            (transaction) =>
              takePet(transaction, petId),
        }),
      ...orders.createHooks,
    },
    getOrder: { handler: (request) => orders.get(request.params.orderId, request) },
    updateOrder: {
      handler: (request) =>
        orders.patch(
          request,
          request.params.orderId,
          (current: Order, patch, next, transaction) => {
            const to = (patch as OrderPatch).status
            if (!canMove(current.status, to)) {
              throw problem('invalidTransition', {
                what: `order ${current.id}`,
                from: current.status,
                to,
                why: refusalOf(current.status),
              })
            }
            const moved = { ...next, updatedAt: new Date(now()).toISOString() }
            return andThen(movePet(transaction, current.petId, to), () => moved)
          },
        ),
    },
  }
}
