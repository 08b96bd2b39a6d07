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

/**
 * Each operation as the server binds it: its method and path; the parameters (by where they
 * are sent) and top-level body properties that have a `default`, which the server applies
 * before a handler runs; and the headers of each success response, with the
 * `components/headers` entry each reuses (`null` when declared inline) and its `required`.
 */
export interface OperationFacts {
  "listPets": {
    method: "get"
    path: "/pets"
    defaults: { query: "limit"; path: never; header: never; body: never }
    successHeaders: {
      200: { "Link": { component: "LinkNext"; required: false }; "X-Request-Id": { component: "X-Request-Id"; required: true }; "X-Content-Type-Options": { component: "X-Content-Type-Options"; required: true }; "Cache-Control": { component: "Cache-Control"; required: true }; "Access-Control-Allow-Origin": { component: "Access-Control-Allow-Origin"; required: false }; "Access-Control-Expose-Headers": { component: "Access-Control-Expose-Headers"; required: false }; "Vary": { component: "Vary"; required: false }; "X-RateLimit-Limit": { component: "X-RateLimit-Limit"; required: true }; "X-RateLimit-Remaining": { component: "X-RateLimit-Remaining"; required: true }; "X-RateLimit-Reset": { component: "X-RateLimit-Reset"; required: true }; "RateLimit-Policy": { component: "RateLimit-Policy"; required: true }; "RateLimit": { component: "RateLimit"; required: true } }
    }
  }
  "createPet": {
    method: "post"
    path: "/pets"
    defaults: { query: never; path: never; header: never; body: "status" }
    successHeaders: {
      201: { "Location": { component: "Location"; required: true }; "Idempotent-Replayed": { component: "Idempotent-Replayed"; required: false }; "X-Request-Id": { component: "X-Request-Id"; required: true }; "X-Content-Type-Options": { component: "X-Content-Type-Options"; required: true }; "Cache-Control": { component: "Cache-Control"; required: true }; "Access-Control-Allow-Origin": { component: "Access-Control-Allow-Origin"; required: false }; "Access-Control-Expose-Headers": { component: "Access-Control-Expose-Headers"; required: false }; "Vary": { component: "Vary"; required: false }; "X-RateLimit-Limit": { component: "X-RateLimit-Limit"; required: true }; "X-RateLimit-Remaining": { component: "X-RateLimit-Remaining"; required: true }; "X-RateLimit-Reset": { component: "X-RateLimit-Reset"; required: true }; "RateLimit-Policy": { component: "RateLimit-Policy"; required: true }; "RateLimit": { component: "RateLimit"; required: true } }
    }
  }
  "getPet": {
    method: "get"
    path: "/pets/{petId}"
    defaults: { query: never; path: never; header: never; body: never }
    successHeaders: {
      200: { "Deprecation": { component: "Deprecation"; required: true }; "Sunset": { component: "Sunset"; required: true }; "Link": { component: "LinkDeprecation"; required: true }; "X-Request-Id": { component: "X-Request-Id"; required: true }; "X-Content-Type-Options": { component: "X-Content-Type-Options"; required: true }; "Cache-Control": { component: "Cache-Control"; required: true }; "Access-Control-Allow-Origin": { component: "Access-Control-Allow-Origin"; required: false }; "Access-Control-Expose-Headers": { component: "Access-Control-Expose-Headers"; required: false }; "Vary": { component: "Vary"; required: false }; "X-RateLimit-Limit": { component: "X-RateLimit-Limit"; required: true }; "X-RateLimit-Remaining": { component: "X-RateLimit-Remaining"; required: true }; "X-RateLimit-Reset": { component: "X-RateLimit-Reset"; required: true }; "RateLimit-Policy": { component: "RateLimit-Policy"; required: true }; "RateLimit": { component: "RateLimit"; required: true } }
    }
  }
  "getOpenApiDocument": {
    method: "get"
    path: "/openapi.json"
    defaults: { query: never; path: never; header: never; body: never }
    successHeaders: {
      200: { "X-Request-Id": { component: "X-Request-Id"; required: true }; "X-Content-Type-Options": { component: "X-Content-Type-Options"; required: true }; "Cache-Control": { component: "Cache-Control"; required: true }; "Access-Control-Allow-Origin": { component: "Access-Control-Allow-Origin"; required: false }; "Access-Control-Expose-Headers": { component: "Access-Control-Expose-Headers"; required: false }; "Vary": { component: "Vary"; required: false }; "X-RateLimit-Limit": { component: "X-RateLimit-Limit"; required: true }; "X-RateLimit-Remaining": { component: "X-RateLimit-Remaining"; required: true }; "X-RateLimit-Reset": { component: "X-RateLimit-Reset"; required: true }; "RateLimit-Policy": { component: "RateLimit-Policy"; required: true }; "RateLimit": { component: "RateLimit"; required: true } }
    }
  }
  "getOpenApiDocumentOptions": {
    method: "options"
    path: "/openapi.json"
    defaults: { query: never; path: never; header: never; body: never }
    successHeaders: {
      204: { "Allow": { component: "Allow"; required: true }; "X-Request-Id": { component: "X-Request-Id"; required: true }; "X-Content-Type-Options": { component: "X-Content-Type-Options"; required: true }; "Cache-Control": { component: "Cache-Control"; required: true }; "Access-Control-Allow-Origin": { component: "Access-Control-Allow-Origin"; required: false }; "Access-Control-Expose-Headers": { component: "Access-Control-Expose-Headers"; required: false }; "Vary": { component: "Vary"; required: false }; "Access-Control-Allow-Methods": { component: "Access-Control-Allow-Methods"; required: false }; "Access-Control-Allow-Headers": { component: "Access-Control-Allow-Headers"; required: false }; "Access-Control-Max-Age": { component: "Access-Control-Max-Age"; required: false } }
    }
  }
}

/** The HTTP status each error code is sent with (`ErrorCode`'s `x-status`). */
export interface ErrorCodeStatus {
  "invalid_request": 400
  "unauthorized": 401
  "not_found": 404
  "method_not_allowed": 405
  "idempotency_key_in_progress": 409
  "payload_too_large": 413
  "unsupported_media_type": 415
  "idempotency_key_reused": 422
  "rate_limited": 429
  "api_key_banned": 429
  "internal_error": 500
  "service_unavailable": 503
  "request_timeout": 408
  "headers_too_large": 431
}
