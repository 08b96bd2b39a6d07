/**
 * The bundled spec and the runtime facts the service reads from it. A separate entry point
 * (`@petstore/types/spec`) so that browser bundles importing only types stay small.
 *
 * @example
 * ```ts
 * import { planLimits } from '@petstore/types/spec'
 * planLimits.free.perMinute // 60
 * ```
 */
import openapiDocument from './generated/openapi.json' with { type: 'json' }
import type { ErrorCode, Plan, PlanLimits } from './index.js'

/** The bundled spec, as served at `/v1/openapi.json`. */
export { openapiDocument }

/** Request quotas by plan, from the spec's `x-rate-limit-plans`. */
export const planLimits: Readonly<Record<Plan, PlanLimits>> = openapiDocument['x-rate-limit-plans']

/** The HTTP status each error code is sent with, from the spec's `ErrorCode.x-status`. */
export const errorStatus: Readonly<Record<ErrorCode, number>> =
  openapiDocument.components.schemas.ErrorCode['x-status']
