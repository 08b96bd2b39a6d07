/**
 * Types and runtime constants of the Pet Adoption Service, generated from `spec/openapi.yaml`.
 *
 * @example
 * ```ts
 * import type { Pet, NewPet } from '@petstore/types'
 * import { petStatusValues } from '@petstore/types'
 * const draft: NewPet = { name: 'Rex', categoryId: 1 }
 * ```
 */
import type { components } from './generated/schema.js'

export type {
  ErrorCodeStatus,
  OperationFacts,
  OperationId,
  Plan,
} from './generated/facts.js'
export {
  operationIds,
  operationRequestHeaders,
  operationRequestMediaTypes,
  perKeyPlanValues,
  planValues,
  responseHeaderTypes,
} from './generated/facts.js'
export type { components, operations, paths, webhooks } from './generated/schema.js'
export { errorCodeValues, orderStatusValues, petStatusValues } from './generated/schema.js'

type Schemas = components['schemas']

export type Pet = Schemas['Pet']
export type NewPet = Schemas['NewPet']
export type Pets = Schemas['Pets']
export type PetStatus = Schemas['PetStatus']
/** A JSON merge patch of a pet (`updatePet`). */
export type PetPatch = Schemas['PetPatch']
export type Order = Schemas['Order']
export type NewOrder = Schemas['NewOrder']
export type Orders = Schemas['Orders']
export type OrderStatus = Schemas['OrderStatus']
/** A JSON merge patch of an order (`updateOrder`). */
export type OrderPatch = Schemas['OrderPatch']
/** The body of every error response. */
export type ApiError = Schemas['Error']
export type ErrorCode = Schemas['ErrorCode']
/** A plan's request quotas; `null` where the plan sets them per API key (enterprise). */
export interface PlanLimits {
  perMinute: number | null
  perDay: number | null
}
