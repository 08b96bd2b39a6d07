/**
 * GENERATED from spec/openapi.yaml by scripts/src/generate-types.ts. Do not edit by hand:
 * edit the spec and run `pnpm generate`.
 */

/** A plan of `x-rate-limit-plans`. */
export type Plan = "free" | "pro" | "business" | "enterprise"

/** Every plan, in spec order. */
export const planValues: readonly Plan[] = ["free", "pro", "business", "enterprise"]

/** Plans whose limits are `null` in the spec: each key of theirs carries its own numbers. */
export const perKeyPlanValues: readonly Plan[] = ["enterprise"]

/** The `operationId` of an operation of the spec. */
export type OperationId = "listPets" | "createPet" | "getPet" | "getOpenApiDocument" | "getOpenApiDocumentOptions"

/** `operationId` by `METHOD path`, as the spec writes them. */
export const operationIds: Readonly<Record<string, OperationId>> = {
  "GET /pets": "listPets",
  "POST /pets": "createPet",
  "GET /pets/{petId}": "getPet",
  "GET /openapi.json": "getOpenApiDocument",
  "OPTIONS /openapi.json": "getOpenApiDocumentOptions",
}
