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
import bundled from './generated/openapi.json' with { type: 'json' }
import type { ErrorCode, Plan, PlanLimits } from './index.js'

/**
 * The spec's type, named through an import type: tsc drops the import attribute of a JSON import
 * statement from the emitted `.d.ts` but keeps this one, and a NodeNext consumer that checks our
 * declarations needs it (TS1543).
 */
// biome-ignore format: Biome 2.6 prints import-type attributes as `{ type: 'json' }})`
type BundledSpec = typeof import('./generated/openapi.json', { with: { type: 'json' } })

/** The bundled spec, as served at `/v1/openapi.json`. */
export const openapiDocument: BundledSpec = bundled

/** Request quotas by plan, from the spec's `x-rate-limit-plans`. */
export const planLimits: Readonly<Record<Plan, PlanLimits>> = openapiDocument['x-rate-limit-plans']

/** The HTTP status each error code is sent with, from the spec's `ErrorCode.x-status`. */
export const errorStatus: Readonly<Record<ErrorCode, number>> =
  openapiDocument.components.schemas.ErrorCode['x-status']
