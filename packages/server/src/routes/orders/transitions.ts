/**
 * The life of an order, in one place: where each status may move, and what its pet becomes. The
 * tables are typed by the spec's enums (`OrderStatus`, `PetStatus`), so a status the spec adds
 * is a compile error here until its moves are written; the handlers and the tests read these.
 */
import type { OrderStatus, PetStatus } from '@petstore/types'

/** The statuses each status may move to; a final one moves nowhere. */
export const orderTransitions = {
  placed: ['approved', 'cancelled'],
  approved: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
} as const satisfies Record<OrderStatus, readonly OrderStatus[]>

/** What an order's pet becomes when the order reaches a status (unchanged where absent). */
export const petStatusOnOrder: { readonly [S in OrderStatus]?: PetStatus } = {
  placed: 'pending',
  delivered: 'sold',
  cancelled: 'available',
}

/** The statuses of an order still under way: its pet cannot be deleted meanwhile. */
export const openOrderStatuses = (Object.keys(orderTransitions) as OrderStatus[]).filter(
  (status) => orderTransitions[status].length > 0,
)

/** The only status a pet can be ordered in. */
export const orderablePetStatus: PetStatus = 'available'

/** Whether an order may move from `from` to `to`. */
export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return (orderTransitions[from] as readonly OrderStatus[]).includes(to)
}

/** Why a move is refused, as the `409 invalid_transition` message says it. */
export function refusalOf(from: OrderStatus): string {
  const next = orderTransitions[from] as readonly OrderStatus[]
  return next.length === 0 ? `${from} is final` : `${from} moves to ${next.join(' or ')}`
}
