/**
 * GENERATED from spec/openapi.yaml by scripts/src/generate-types.ts. Do not edit by hand:
 * edit the spec and run `pnpm generate`.
 */

export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pets
         * @description Lists pets ordered by `id`, ascending, optionally filtered by status. Results are paginated:
         *     when more exist, the `Link` header carries the `next` page's URL (see Pagination).
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add a pet
         * @description Adds a pet. `status` defaults to `available`. Send an `Idempotency-Key` to make retries
         *     safe: a retry with the same key and body replays the first response instead of creating
         *     a second pet (see Idempotent creation).
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a pet
         * @deprecated
         * @description Returns one pet by its identifier.
         *
         *     **Deprecated** since 1 January 2026 and removed on 5 December 2030. Use `listPets`
         *     (`GET /pets`) with the `status` filter instead. Every response of this operation carries
         *     `Deprecation`, `Sunset` and `Link` headers (see Deprecation policy).
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        /**
         * Delete a pet
         * @description Removes a pet: `204`, and from then on its id is `404` and never given to another pet. A
         *     pet with an open order (`placed` or `approved`) cannot be deleted
         *     (`409 pet_has_open_order`): cancel or deliver the order first. `If-Match` with the pet's
         *     `ETag` deletes it only if nobody changed it since you read it.
         */
        delete: operations["deletePet"];
        options?: never;
        head?: never;
        /**
         * Update a pet
         * @description Changes a pet's `name` or `categoryId` with a JSON merge patch (RFC 7396,
         *     `application/merge-patch+json`): the properties sent replace the pet's, the others stay.
         *     `null` (which would remove a property) and unknown properties are `400`. A pet's `status`
         *     moves only through its orders (see Adoption): a patch of `status` is
         *     `409 invalid_transition`; `id` cannot be patched. Send the pet's `ETag` in `If-Match` to
         *     change it only if nobody changed it since you read it (`412 precondition_failed`
         *     otherwise, with nothing changed).
         */
        patch: operations["updatePet"];
        trace?: never;
    };
    "/store/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your orders
         * @description Lists the orders placed with your API key, ordered by `id`, ascending, optionally filtered
         *     by `status` and `petId`. Paginated like `listPets`: follow the `Link` header's `next`
         *     page. Orders placed with another key are never listed.
         *
         *     **Beta**: this operation may still change in a way that breaks clients before it is
         *     declared stable (see Stability).
         * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Place an order for a pet
         * @description Orders an `available` pet for adoption: the order starts `placed` and the pet becomes
         *     `pending` in the same transaction, so of any number of concurrent orders for one pet
         *     exactly one is placed; the others are `409 pet_not_available`, as is an order for a pet
         *     that is `pending` or `sold`. A pet that does not exist is `404`. Send an
         *     `Idempotency-Key` to make retries safe (see Idempotent creation).
         *
         *     **Beta**: this operation may still change in a way that breaks clients before it is
         *     declared stable (see Stability).
         * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
         */
        post: operations["placeOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one of your orders
         * @description Returns an order placed with your API key. An order of another key is `404`, as if it did
         *     not exist.
         *
         *     **Beta**: this operation may still change in a way that breaks clients before it is
         *     declared stable (see Stability).
         * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Move one of your orders on
         * @description Moves an order to its next status with a JSON merge patch (RFC 7396,
         *     `application/merge-patch+json`) of `status`: `placed` -> `approved` or `cancelled`,
         *     `approved` -> `delivered` or `cancelled`; `delivered` and `cancelled` are final. Any other
         *     move is `409 invalid_transition`, naming both statuses. The pet follows in the same
         *     transaction: `delivered` makes it `sold`, `cancelled` makes it `available` again. An order
         *     of another key is `404`. `If-Match` with the order's `ETag` moves it only if nobody moved
         *     it since you read it.
         *
         *     **Beta**: this operation may still change in a way that breaks clients before it is
         *     declared stable (see Stability).
         * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
         */
        patch: operations["updateOrder"];
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get this document
         * @description Returns this OpenAPI document as JSON. Needs no API key; limited per client IP like any
         *     request without one.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods of this document
         * @description Answers `204` with `Allow: GET, HEAD, OPTIONS`; also the CORS preflight. Needs no key and
         *     counts against no limit.
         */
        options: operations["getOpenApiDocumentOptions"];
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Format: int64
         * @description Identifier of a pet, assigned by the service on creation: an integer from 1 to
         *     9007199254740991 (2^53-1), the largest range every JSON parser reads exactly. Pet and
         *     category identifiers share this range.
         * @example 1
         */
        PetId: number;
        /**
         * Format: int64
         * @description Identifier of the category a pet belongs to: an integer from 1 to 9007199254740991
         *     (2^53-1), the same range as pet identifiers.
         * @example 1
         */
        CategoryId: number;
        /**
         * @description A pet's name: 1 to 100 Unicode code points, at least one of them not white space, no
         *     control characters (U+0000 to U+001F, U+007F) and no lone surrogates.
         * @example Rex
         */
        PetName: string;
        /**
         * @description Availability of a pet: `available` (can be adopted), `pending` (an adoption is under way)
         *     or `sold` (adopted).
         * @example available
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description A pet to add. Unknown properties are rejected.
         * @example {
         *       "name": "Rex",
         *       "categoryId": 1
         *     }
         * @example {
         *       "name": "Whiskers",
         *       "categoryId": 2,
         *       "status": "pending"
         *     }
         */
        NewPet: {
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            /** @default available */
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * @description A pet, as stored. Always has exactly these four properties.
         * @example {
         *       "id": 1,
         *       "name": "Rex",
         *       "categoryId": 1,
         *       "status": "available"
         *     }
         */
        Pet: {
            id: components["schemas"]["PetId"];
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            status: components["schemas"]["PetStatus"];
        };
        /**
         * @description A page of pets, ordered by `id` ascending.
         * @example [
         *       {
         *         "id": 1,
         *         "name": "Rex",
         *         "categoryId": 1,
         *         "status": "available"
         *       }
         *     ]
         */
        Pets: components["schemas"]["Pet"][];
        /**
         * @description A JSON merge patch of a pet (RFC 7396): the properties to change, each to its new value.
         *     `status` is declared so that a patch of it is answered `409 invalid_transition` (a pet's
         *     status moves only through its orders) rather than refused as unknown; `null` is refused,
         *     since every property of a pet is required.
         * @example {
         *       "name": "Rex the Second"
         *     }
         * @example {
         *       "categoryId": 2
         *     }
         */
        PetPatch: {
            name?: components["schemas"]["PetName"];
            categoryId?: components["schemas"]["CategoryId"];
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * Format: int64
         * @description Identifier of an order, assigned by the service when it is placed: an integer from 1 to
         *     9007199254740991 (2^53-1).
         * @example 7
         */
        OrderId: number;
        /**
         * @description Where an order is: `placed` (the pet is `pending`), `approved`, `delivered` (the pet is
         *     `sold`; final) or `cancelled` (the pet is `available` again; final). An order moves
         *     `placed` -> `approved` or `cancelled`, `approved` -> `delivered` or `cancelled`.
         * @example placed
         * @enum {string}
         */
        OrderStatus: "placed" | "approved" | "delivered" | "cancelled";
        /**
         * Format: date-time
         * @description An instant, in RFC 3339 UTC with milliseconds (`2026-11-29T10:15:00.000Z`).
         * @example 2026-11-29T10:15:00.000Z
         */
        Timestamp: string;
        /**
         * @description An order to place for a pet. Unknown properties are rejected.
         * @example {
         *       "petId": 1
         *     }
         */
        NewOrder: {
            petId: components["schemas"]["PetId"];
        };
        /**
         * @description An order for a pet, placed with one API key and seen only with it.
         * @example {
         *       "id": 7,
         *       "petId": 1,
         *       "status": "placed",
         *       "placedAt": "2026-11-29T10:15:00.000Z",
         *       "updatedAt": "2026-11-29T10:15:00.000Z"
         *     }
         */
        Order: {
            id: components["schemas"]["OrderId"];
            petId: components["schemas"]["PetId"];
            status: components["schemas"]["OrderStatus"];
            placedAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /**
         * @description A JSON merge patch of an order (RFC 7396) moving it to its next status.
         * @example {
         *       "status": "approved"
         *     }
         */
        OrderPatch: {
            status: components["schemas"]["OrderStatus"];
        };
        /**
         * @description A page of orders, ordered by `id` ascending.
         * @example [
         *       {
         *         "id": 7,
         *         "petId": 1,
         *         "status": "placed",
         *         "placedAt": "2026-11-29T10:15:00.000Z",
         *         "updatedAt": "2026-11-29T10:15:00.000Z"
         *       }
         *     ]
         */
        Orders: components["schemas"]["Order"][];
        /**
         * @description Machine-readable error code; `x-status` gives the HTTP status each code is sent with.
         * @example invalid_request
         * @enum {string}
         */
        ErrorCode: "invalid_request" | "unauthorized" | "not_found" | "method_not_allowed" | "idempotency_key_in_progress" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "rate_limited" | "api_key_banned" | "internal_error" | "service_unavailable" | "request_timeout" | "headers_too_large" | "pet_not_available" | "invalid_transition" | "pet_has_open_order" | "precondition_failed";
        /**
         * @description The body of every error response.
         * @example {
         *       "code": "not_found",
         *       "message": "pet 42 does not exist",
         *       "status": 404
         *     }
         */
        Error: {
            code: components["schemas"]["ErrorCode"];
            /**
             * @description What was wrong and where (which field or parameter). Never internal detail.
             * @example query parameter limit must be an integer from 1 to 100
             */
            message: string;
            /**
             * Format: int32
             * @description The HTTP status of the response.
             * @example 400
             */
            status: number;
        };
    };
    responses: {
        /** @description A parameter or the body is missing, malformed or out of range. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The API key is missing, unknown, revoked or malformed. */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request's headers or body did not arrive in time (30 seconds by default); the
         *     connection is closed after this answer.
         */
        RequestTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request line and headers exceed the server's limit. */
        HeadersTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The methods the path supports, in `Allow`. As a CORS preflight from an allowed origin,
         *     also the `Access-Control-Allow-*` headers. Needs no key and counts against no limit.
         */
        AllowedMethods: {
            headers: {
                Allow: components["headers"]["Allow"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description No pet has this identifier (or it was deleted). */
        PetNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No order of yours has this identifier; an order placed with another key is not found either. */
        OrderNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The `If-Match` header names no current state of the resource, which changed since it was read. Nothing was changed; read it again. */
        PreconditionFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A request with the same `Idempotency-Key` is still in flight; retry later. */
        IdempotencyKeyInProgress: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than 64 KiB. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The `Idempotency-Key` was used before with a different body. */
        IdempotencyKeyReused: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A rate limit is exceeded (`rate_limited`), or the key is temporarily banned (`api_key_banned`). */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected failure in the service. The message never carries internal detail. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfCounted"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfCounted"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfCounted"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy-IfCounted"];
                RateLimit: components["headers"]["RateLimit-IfCounted"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A backing store (the database, or Redis for rate limits) is unreachable; retry after `Retry-After` seconds. */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfCounted"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfCounted"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfCounted"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy-IfCounted"];
                RateLimit: components["headers"]["RateLimit-IfCounted"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description Maximum number of items on the page. Strict integer syntax (`^[1-9][0-9]*$`).
         * @example 20
         */
        Limit: number;
        /**
         * @description Only pets with this status.
         * @example available
         */
        StatusFilter: components["schemas"]["PetStatus"];
        /**
         * @description Only orders with this status.
         * @example placed
         */
        OrderStatusFilter: components["schemas"]["OrderStatus"];
        /**
         * @description Only orders for this pet. Strict integer syntax (`^[1-9][0-9]*$`).
         * @example 1
         */
        PetIdFilter: components["schemas"]["PetId"];
        /**
         * @description Opaque position after which the page starts, taken from the `next` link of the previous
         *     page. Never build or alter one: an empty or altered cursor is `400`. Cursors are sealed by
         *     the server that issued them, so no value written here would be valid on any server: this
         *     parameter has no example, and example-driven tools leave it out.
         */
        Cursor: string;
        /**
         * @description Identifier of the pet. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1
         *     (9223372036854775807, the `int64` maximum; the bound is the format's, as no JSON number
         *     carries it exactly). Pets have identifiers up to 9007199254740991 (see `PetId`), so a
         *     well-formed larger one is `404`; above 2^63-1 it is `400`.
         * @example 1
         */
        PetId: number;
        /**
         * @description Identifier of the order. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1 (see
         *     `petId`); a well-formed one that names no order of yours is `404`.
         * @example 7
         */
        OrderId: number;
        /**
         * @description Makes the change conditional (RFC 9110, section 13.1.1): the `ETag` of the resource as you
         *     last read it, or several, or `*` (any current state). When none matches the resource's
         *     current `ETag` the answer is `412 precondition_failed` and nothing changes; a weak tag
         *     (`W/"..."`) never matches. Without it the change is made whatever the current state. A tag
         *     is the server's digest of what it last sent, so no value written here would match on any
         *     server: this parameter has no example, and example-driven tools leave it out.
         */
        IfMatch: string;
        /**
         * @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a
         *     Structured Field string such as `"8e03978e-40d5-43e8-bc93-6894a57f9324"`, or the same
         *     characters bare. 1 to 255 printable characters, scoped to the API key, kept 24 hours.
         *     Generate a new key (a random UUID, say) for each new request and send the same key only
         *     to retry that request: a key sent again with another body is `422`. This parameter has
         *     no example for that reason, so example-driven tools leave it out.
         */
        IdempotencyKey: string;
        /**
         * @description The client's own identifier for this request, echoed in the response and in the service's
         *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
         *     response header's schema) is used as sent, any other is replaced by a generated one, which
         *     the response's `X-Request-Id` then carries.
         * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
         */
        RequestId: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The request's identifier, also written to the service's logs.
         * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
         */
        "X-Request-Id": string;
        /**
         * @description Quota of the window (minute or day) with the fewest requests remaining; on a tie, the
         *     window that ends later.
         * @example 60
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests remaining in that window.
         * @example 42
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Unix time, in seconds rounded up, at which that window ends (while banned: at which the
         *     ban ends, or the window if it is used up and ends later).
         * @example 1798761600
         */
        "X-RateLimit-Reset": number;
        /**
         * @description Both windows' quotas (draft-ietf-httpapi-ratelimit-headers): `q` is the quota, `w` the
         *     window in seconds.
         * @example "minute";q=60;w=60, "day";q=1000;w=86400
         */
        "RateLimit-Policy": string;
        /**
         * @description Both windows' state (draft-ietf-httpapi-ratelimit-headers): `r` is the number of requests
         *     remaining, `t` the seconds until the window resets, rounded up (while banned, `r=0` and
         *     `t` counts to the end of the ban at least).
         * @example "minute";r=42;t=18, "day";r=981;t=40210
         */
        RateLimit: string;
        /**
         * @description As on every counted response; present when the request was counted before the failure.
         * @example 60
         */
        "X-RateLimit-Limit-IfCounted": number;
        /**
         * @description As on every counted response; present when the request was counted before the failure.
         * @example 42
         */
        "X-RateLimit-Remaining-IfCounted": number;
        /**
         * @description As on every counted response; present when the request was counted before the failure.
         * @example 1798761600
         */
        "X-RateLimit-Reset-IfCounted": number;
        /**
         * @description As on every counted response; present when the request was counted before the failure.
         * @example "minute";q=60;w=60, "day";q=1000;w=86400
         */
        "RateLimit-Policy-IfCounted": string;
        /**
         * @description As on every counted response; present when the request was counted before the failure.
         * @example "minute";r=42;t=18, "day";r=981;t=40210
         */
        "RateLimit-IfCounted": string;
        /**
         * @description Seconds to wait before retrying (RFC 9110), at least 1.
         * @example 18
         */
        "Retry-After": number;
        /**
         * @description The bearer challenge (RFC 6750): `Bearer realm="petstore"`, with
         *     `error="invalid_token"` and an `error_description` when a token was sent but is not valid.
         * @example Bearer realm="petstore", error="invalid_token", error_description="The API key is unknown or revoked"
         */
        "WWW-Authenticate": string;
        /**
         * @description Path of the created pet.
         * @example /v1/pets/1
         */
        Location: string;
        /**
         * @description Path of the placed order.
         * @example /v1/store/orders/7
         */
        OrderLocation: string;
        /**
         * @description A strong entity tag of the resource's current state (RFC 9110, section 8.8.3): it changes
         *     whenever the resource does. Send it back in `If-Match` to change the resource only if it
         *     is still in that state.
         * @example "3q2-7wSqcR0cVbQk2x_ZQx"
         */
        ETag: string;
        /**
         * @description Present, with the value `true`, when the response replays an earlier request with the same `Idempotency-Key`.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description The next page (RFC 8288), present only when more results exist. The URL keeps `limit`
         *     and `status` and adds an opaque `cursor`.
         * @example </v1/pets?limit=20&cursor=TNWIFBxdkGVCh7kT7BjJpA>; rel="next"
         */
        LinkNext: string;
        /**
         * @description When the operation was deprecated (RFC 9745), as a Structured Field date.
         * @example @1767225600
         */
        Deprecation: string;
        /**
         * @description When the operation will be removed (RFC 8594), as an HTTP date.
         * @example Thu, 05 Dec 2030 00:00:00 GMT
         */
        Sunset: string;
        /**
         * @description The deprecation notice and sunset policy in this documentation, and the replacement
         *     operation (RFC 9745, RFC 8594).
         * @example </docs#operation/getPet>; rel="deprecation"; type="text/html", </docs#section/Deprecation-policy>; rel="sunset"; type="text/html", </v1/pets>; rel="successor-version"
         */
        LinkDeprecation: string;
        /**
         * @description Always `nosniff`, so a browser never renders a response as another type.
         * @example nosniff
         */
        "X-Content-Type-Options": "nosniff";
        /**
         * @description Always `no-store`; responses depend on the caller's key and limits.
         * @example no-store
         */
        "Cache-Control": "no-store";
        /**
         * @description CORS: present when the request carries an `Origin` the operator allows
         *     (`PETSTORE_CORS_ORIGINS`); `*` when all origins are allowed (the default), else the
         *     request's origin. Credentials are never allowed: keys are bearer tokens.
         * @example *
         */
        "Access-Control-Allow-Origin": string;
        /**
         * @description CORS, sent with `Access-Control-Allow-Origin`: the response headers a browser client may
         *     read. Every response header this document declares is listed, but those a browser shows
         *     scripts anyway (`Cache-Control`), those of the CORS protocol itself and those marked
         *     `x-cors-exposed: false`; a header added to this document joins the list.
         * @example Link, Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Deprecation, Sunset, X-Request-Id, Idempotent-Replayed, ETag
         */
        "Access-Control-Expose-Headers": string;
        /**
         * @description `Origin` when the operator allows a list of origins rather than all of them.
         * @example Origin
         */
        Vary: "Origin";
        /**
         * @description The methods the path supports (RFC 9110), e.g. `GET, HEAD, OPTIONS`.
         * @example GET, HEAD, OPTIONS
         */
        Allow: string;
        /**
         * @description CORS preflight (a request with `Origin` and `Access-Control-Request-Method`) from an allowed origin - the path's methods.
         * @example GET, HEAD, OPTIONS
         */
        "Access-Control-Allow-Methods": string;
        /**
         * @description CORS preflight from an allowed origin - the request headers a browser may send:
         *     `Authorization`, `Content-Type` and every header parameter this document declares.
         * @example Authorization, Content-Type, If-Match, Idempotency-Key, X-Request-Id
         */
        "Access-Control-Allow-Headers": string;
        /**
         * @description CORS preflight from an allowed origin - seconds a browser may cache the preflight.
         * @example 600
         */
        "Access-Control-Max-Age": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of items on the page. Strict integer syntax (`^[1-9][0-9]*$`).
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only pets with this status.
                 * @example available
                 */
                status?: components["parameters"]["StatusFilter"];
                /**
                 * @description Opaque position after which the page starts, taken from the `next` link of the previous
                 *     page. Never build or alter one: an empty or altered cursor is `400`. Cursors are sealed by
                 *     the server that issued them, so no value written here would be valid on any server: this
                 *     parameter has no example, and example-driven tools leave it out.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pets. */
            200: {
                headers: {
                    Link: components["headers"]["LinkNext"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pets"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a
                 *     Structured Field string such as `"8e03978e-40d5-43e8-bc93-6894a57f9324"`, or the same
                 *     characters bare. 1 to 255 printable characters, scoped to the API key, kept 24 hours.
                 *     Generate a new key (a random UUID, say) for each new request and send the same key only
                 *     to retry that request: a key sent again with another body is `422`. This parameter has
                 *     no example for that reason, so example-driven tools leave it out.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description The pet was created (or, with `Idempotent-Replayed`, an earlier creation is replayed). */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInProgress"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description Identifier of the pet. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1
                 *     (9223372036854775807, the `int64` maximum; the bound is the format's, as no JSON number
                 *     carries it exactly). Pets have identifiers up to 9007199254740991 (see `PetId`), so a
                 *     well-formed larger one is `404`; above 2^63-1 it is `400`.
                 * @example 1
                 */
                petId: components["parameters"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description The `petId` is not a positive integer, or is above 2^63-1 (9223372036854775807). */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, unknown, revoked or malformed. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this identifier. */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's headers or body did not arrive in time (30 seconds by default); the connection is closed after this answer. */
            408: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A rate limit is exceeded, or the key is temporarily banned. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request line and headers exceed the server's limit. */
            431: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected failure in the service. */
            500: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfCounted"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfCounted"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfCounted"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy-IfCounted"];
                    RateLimit: components["headers"]["RateLimit-IfCounted"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A backing store (the database, or Redis for rate limits) is unreachable; retry after `Retry-After` seconds. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["LinkDeprecation"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfCounted"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfCounted"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfCounted"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy-IfCounted"];
                    RateLimit: components["headers"]["RateLimit-IfCounted"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the change conditional (RFC 9110, section 13.1.1): the `ETag` of the resource as you
                 *     last read it, or several, or `*` (any current state). When none matches the resource's
                 *     current `ETag` the answer is `412 precondition_failed` and nothing changes; a weak tag
                 *     (`W/"..."`) never matches. Without it the change is made whatever the current state. A tag
                 *     is the server's digest of what it last sent, so no value written here would match on any
                 *     server: this parameter has no example, and example-driven tools leave it out.
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description Identifier of the pet. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1
                 *     (9223372036854775807, the `int64` maximum; the bound is the format's, as no JSON number
                 *     carries it exactly). Pets have identifiers up to 9007199254740991 (see `PetId`), so a
                 *     well-formed larger one is `404`; above 2^63-1 it is `400`.
                 * @example 1
                 */
                petId: components["parameters"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet was deleted. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PetNotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The pet has an open order (`placed` or `approved`). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updatePet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the change conditional (RFC 9110, section 13.1.1): the `ETag` of the resource as you
                 *     last read it, or several, or `*` (any current state). When none matches the resource's
                 *     current `ETag` the answer is `412 precondition_failed` and nothing changes; a weak tag
                 *     (`W/"..."`) never matches. Without it the change is made whatever the current state. A tag
                 *     is the server's digest of what it last sent, so no value written here would match on any
                 *     server: this parameter has no example, and example-driven tools leave it out.
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description Identifier of the pet. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1
                 *     (9223372036854775807, the `int64` maximum; the bound is the format's, as no JSON number
                 *     carries it exactly). Pets have identifiers up to 9007199254740991 (see `PetId`), so a
                 *     well-formed larger one is `404`; above 2^63-1 it is `400`.
                 * @example 1
                 */
                petId: components["parameters"]["PetId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["PetPatch"];
            };
        };
        responses: {
            /** @description The pet, changed. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PetNotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description A patch of `status`, which moves only through orders. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    /**
     * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
     */
    listOrders: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of items on the page. Strict integer syntax (`^[1-9][0-9]*$`).
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only orders with this status.
                 * @example placed
                 */
                status?: components["parameters"]["OrderStatusFilter"];
                /**
                 * @description Only orders for this pet. Strict integer syntax (`^[1-9][0-9]*$`).
                 * @example 1
                 */
                petId?: components["parameters"]["PetIdFilter"];
                /**
                 * @description Opaque position after which the page starts, taken from the `next` link of the previous
                 *     page. Never build or alter one: an empty or altered cursor is `400`. Cursors are sealed by
                 *     the server that issued them, so no value written here would be valid on any server: this
                 *     parameter has no example, and example-driven tools leave it out.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders. */
            200: {
                headers: {
                    Link: components["headers"]["LinkNext"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Orders"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    /**
     * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
     */
    placeOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a
                 *     Structured Field string such as `"8e03978e-40d5-43e8-bc93-6894a57f9324"`, or the same
                 *     characters bare. 1 to 255 printable characters, scoped to the API key, kept 24 hours.
                 *     Generate a new key (a random UUID, say) for each new request and send the same key only
                 *     to retry that request: a key sent again with another body is `422`. This parameter has
                 *     no example for that reason, so example-driven tools leave it out.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewOrder"];
            };
        };
        responses: {
            /** @description The order was placed (or, with `Idempotent-Replayed`, an earlier one is replayed). */
            201: {
                headers: {
                    Location: components["headers"]["OrderLocation"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No pet has the `petId` of the order. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The pet is not `available` (`pet_not_available`), or a request with the same `Idempotency-Key` is still in flight (`idempotency_key_in_progress`). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    /**
     * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
     */
    getOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description Identifier of the order. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1 (see
                 *     `petId`); a well-formed one that names no order of yours is `404`.
                 * @example 7
                 */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    /**
     * @beta `x-stability-level: beta`: may still change in ways that break clients before it is declared stable.
     */
    updateOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the change conditional (RFC 9110, section 13.1.1): the `ETag` of the resource as you
                 *     last read it, or several, or `*` (any current state). When none matches the resource's
                 *     current `ETag` the answer is `412 precondition_failed` and nothing changes; a weak tag
                 *     (`W/"..."`) never matches. Without it the change is made whatever the current state. A tag
                 *     is the server's digest of what it last sent, so no value written here would match on any
                 *     server: this parameter has no example, and example-driven tools leave it out.
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description Identifier of the order. Strict integer syntax (`^[1-9][0-9]*$`), at most 2^63-1 (see
                 *     `petId`); a well-formed one that names no order of yours is `404`.
                 * @example 7
                 */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["OrderPatch"];
            };
        };
        responses: {
            /** @description The order, moved on. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The order cannot move to that status. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: Record<string, never>;
                        paths: Record<string, never>;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApiDocumentOptions: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The client's own identifier for this request, echoed in the response and in the service's
                 *     logs. Any value is accepted, never refused: one matching `^[A-Za-z0-9._:-]{1,128}$` (the
                 *     response header's schema) is used as sent, any other is replaced by a generated one, which
                 *     the response's `X-Request-Id` then carries.
                 * @example 4f9c2a1e-8d4b-4c55-9a3e-0a1b2c3d4e5f
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["AllowedMethods"];
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const petStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PetStatus"]> = ["available", "pending", "sold"];
export const orderStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderStatus"]> = ["placed", "approved", "delivered", "cancelled"];
export const errorCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ErrorCode"]> = ["invalid_request", "unauthorized", "not_found", "method_not_allowed", "idempotency_key_in_progress", "payload_too_large", "unsupported_media_type", "idempotency_key_reused", "rate_limited", "api_key_banned", "internal_error", "service_unavailable", "request_timeout", "headers_too_large", "pet_not_available", "invalid_transition", "pet_has_open_order", "precondition_failed"];
export const componentsHeadersIdempotentReplayedValues: ReadonlyArray<FlattenedDeepRequired<components>["headers"]["Idempotent-Replayed"]> = ["true"];
export const componentsHeadersXContentTypeOptionsValues: ReadonlyArray<FlattenedDeepRequired<components>["headers"]["X-Content-Type-Options"]> = ["nosniff"];
export const componentsHeadersCacheControlValues: ReadonlyArray<FlattenedDeepRequired<components>["headers"]["Cache-Control"]> = ["no-store"];
export const componentsHeadersVaryValues: ReadonlyArray<FlattenedDeepRequired<components>["headers"]["Vary"]> = ["Origin"];
