/**
 * `meta`: what a response says in its headers, next to openapi-fetch's `{ data, error, response }`.
 * Its type is derived from the spec: `OperationFacts` (generated) lists the headers each response
 * of each operation declares, and each declared header fills one field (header-fields.ts): a
 * parsed one (`requestId`, `rateLimit`, `next`, ...) or one of its own named after it (`etag`,
 * `location`, ...) with the type openapi-typescript gives its schema. An operation has a field
 * only when the spec declares the header it comes from, and the field is `| undefined` unless
 * every such response requires it. Values are parsed when read, never before: a call that does
 * not read `meta` pays for one small object.
 */
import type { OperationFacts, OperationId, operations, paths } from '@petstore/types'
import { responseHeaderTypes } from '@petstore/types'
import type { HttpMethodName } from '@petstore/types/openapi'
import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch'
import {
  type FieldName,
  fieldName,
  hasOwnField,
  type ParsedField,
  type parsedHeaders,
  type parsedLinkRelation,
} from './header-fields.js'
import { parseDeprecation, parseHttpDate } from './http/deprecation-headers.js'
import { type NextPage, nextPage } from './http/link.js'
import { parseRateLimit, type RateLimitInfo } from './http/rate-limit-headers.js'
import { requestIdOf } from './http/request-id.js'
import { parseRetryAfter } from './http/retry-after.js'

/** The value of each parsed field of `meta`, and the headers it is read from. */
export interface MetaFields {
  /** `X-Request-Id`: the service's identifier of the request, to quote when reporting a problem. */
  requestId: string
  /** `RateLimit` and `RateLimit-Policy`, else `X-RateLimit-*`: the key's limits, `reset` as a `Date`. */
  rateLimit: RateLimitInfo
  /** `Link: <…>; rel="next"`: the next page's URL and cursor; `undefined` on the last page. */
  next: NextPage
  /** `Deprecation`: when the operation was deprecated. */
  deprecation: Date
  /** `Sunset`: when the operation will be removed. */
  sunset: Date
  /** `Retry-After`: milliseconds to wait from when the response arrived. */
  retryAfterMs: number
}

/** The parsed headers by lower-case name, so a declared `etag` or `ETAG` is found too. */
type ParsedByName = {
  [Name in keyof typeof parsedHeaders as Lowercase<Name>]: (typeof parsedHeaders)[Name]
}

/** The parsed field a declared header fills, `never` when it fills one of its own. */
type ParsedFieldOf<Name, Declared> =
  Lowercase<Name & string> extends infer Lower
    ? Lower extends keyof ParsedByName
      ? Lower extends 'link'
        ? Declared extends { rel: infer Rel }
          ? typeof parsedLinkRelation extends Rel
            ? ParsedByName[Lower]
            : never
          : never
        : ParsedByName[Lower]
      : never
    : never

type IsOwn<Name, Declared> = [ParsedFieldOf<Name, Declared>] extends [never] ? true : false

/** The field a declared header fills. */
type FieldOf<Name, Declared> =
  IsOwn<Name, Declared> extends true ? FieldName<Name & string> : ParsedFieldOf<Name, Declared>

/** Header `Name` of response `Status` of `Op` as openapi-typescript types its schema. */
type DeclaredValue<
  Op extends OperationId,
  Status,
  Name,
> = operations[Op]['responses'] extends infer Responses
  ? Status extends keyof Responses
    ? Responses[Status] extends { headers: infer Headers }
      ? Name extends keyof Headers
        ? Headers[Name]
        : string
      : string
    : string
  : string

/** The value of the field a declared header fills (a parsed field missing above fails here). */
type ValueOf<Op extends OperationId, Status, Name, Declared> =
  IsOwn<Name, Declared> extends true
    ? DeclaredValue<Op, Status, Name>
    : MetaFields[ParsedFieldOf<Name, Declared> & ParsedField]

/** The fields of one response: one per declared header, required when the header is. */
type ResponseFields<Op extends OperationId, Status, Declared> = {
  [Name in keyof Declared as FieldOf<Name, Declared[Name]>]: Declared[Name] extends {
    required: true
  }
    ? ValueOf<Op, Status, Name, Declared[Name]>
    : ValueOf<Op, Status, Name, Declared[Name]> | undefined
}

type Success = 'successHeaders'
type Failure = 'errorHeaders'
/** The declared headers of each response of `Op` in `Branch`, by status. */
type HeadersOf<Op extends OperationId, Branch extends Success | Failure> =
  OperationFacts[Op] extends Record<Branch, infer ByStatus> ? ByStatus : never
/** The statuses of a branch: all of `errorHeaders`, the 2xx of `successHeaders` (as openapi-fetch). */
type Statuses<Op extends OperationId, Branch extends Success | Failure> = {
  [S in keyof HeadersOf<Op, Branch>]: Branch extends Failure
    ? S
    : `${S & (string | number)}` extends `2${string}`
      ? S
      : never
}[keyof HeadersOf<Op, Branch>]
/** The fields of each response of a branch, as a union. */
type BranchFields<Op extends OperationId, Branch extends Success | Failure> = {
  [S in Statuses<Op, Branch>]: ResponseFields<Op, S, HeadersOf<Op, Branch>[S]>
}[Statuses<Op, Branch>]
type Keys<Fields> = Fields extends unknown ? keyof Fields : never
/** Every field of the operation; in `Fields`' responses, `| undefined` where one lacks it. */
type Merge<Fields, All extends PropertyKey> = {
  readonly [K in All]: [Fields] extends [never]
    ? undefined
    : Fields extends unknown
      ? K extends keyof Fields
        ? Fields[K]
        : undefined
      : never
}
type OperationKeys<Op extends OperationId> =
  | Keys<BranchFields<Op, Success>>
  | Keys<BranchFields<Op, Failure>>

/** `meta` of a success (2xx) response of `Op`; fields only its errors declare are `undefined`. */
export type SuccessMeta<Op extends OperationId> = Merge<
  BranchFields<Op, Success>,
  OperationKeys<Op>
>
/** `meta` of an error response of `Op`; fields only its successes declare are `undefined`. */
export type ErrorMeta<Op extends OperationId> = Merge<BranchFields<Op, Failure>, OperationKeys<Op>>
/**
 * `meta` of any response of `Op`, typed from the headers the spec declares for it.
 *
 * @example
 * ```ts
 * function lastCursor(meta: OperationMeta<'listPets'>) {
 *   return meta.next?.cursor
 * }
 * ```
 */
export type OperationMeta<Op extends OperationId> = SuccessMeta<Op> | ErrorMeta<Op>

/** The operation at `Path` and `Method` (lower case), found through `OperationFacts`. */
export type OperationAt<Path, Method> = {
  [Op in OperationId]: OperationFacts[Op] extends { path: Path; method: Method } ? Op : never
}[OperationId]

/** openapi-fetch's result with `meta` added to each branch. */
export type WithMeta<Result, Op extends OperationId> = Result extends { error: unknown }
  ? Result & { meta: ErrorMeta<Op> }
  : Result & { meta: SuccessMeta<Op> }

/** A Path Item method, as openapi-fetch's `paths` name them (lower case). */
export type HttpMethod = HttpMethodName
// openapi-fetch's InitParam (not exported), so the signatures below accept exactly what its own do.
// biome-ignore lint/complexity/noBannedTypes: `{}` extends Pick<T, K> exactly when K is optional
type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T]
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }]
type Paths<Method extends HttpMethod> = ClientPathsWithMethod<Client<paths>, Method>
type Result<Method extends HttpMethod, Path extends Paths<Method>, Init> = Promise<
  WithMeta<
    FetchResponse<
      paths[Path][Method] & Record<string | number, unknown>,
      Init,
      `${string}/${string}`
    >,
    OperationAt<Path, Method>
  >
>

/** `client.GET` and the others: openapi-fetch's call, with `meta`. */
export type MetaMethod<Method extends HttpMethod> = <
  Path extends Paths<Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Result<Method, Path, Init>

/** `client.request(method, path, init)`, with `meta`. */
export type MetaRequestMethod = <
  Method extends HttpMethod,
  Path extends Paths<Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  method: Method,
  url: Path,
  ...init: InitParam<Init>
) => Result<Method, Path, Init>

/**
 * The runtime side of `meta`: one getter per field of {@link MetaFields}, each parsing its header
 * when read (with the parser the middleware use), and one per other header the spec declares
 * anywhere (`responseHeaderTypes`), reading its text or its integer. Every response has them all;
 * the type of a call's `meta` shows only those its operation declares.
 */
export class ResponseMeta {
  static {
    for (const [name, type] of Object.entries(responseHeaderTypes)) {
      if (!hasOwnField(name)) continue
      Object.defineProperty(ResponseMeta.prototype, fieldName(name), {
        get(this: ResponseMeta) {
          const value = this.#headers.get(name) ?? undefined
          if (type === 'string' || value === undefined) return value
          return /^\d+$/.test(value) ? Number(value) : undefined
        },
      })
    }
  }

  readonly #headers: Headers
  readonly #url: string
  readonly #receivedAt: number

  /** `receivedAt`: when the response arrived, for the headers that count seconds from then. */
  constructor(response: Response, receivedAt: number) {
    this.#headers = response.headers
    this.#url = response.url
    this.#receivedAt = receivedAt
  }

  get requestId(): string | undefined {
    return requestIdOf(this.#headers)
  }

  get rateLimit(): RateLimitInfo | undefined {
    return parseRateLimit(this.#headers, this.#receivedAt)
  }

  get next(): NextPage | undefined {
    return nextPage(this.#headers, this.#url)
  }

  get deprecation(): Date | undefined {
    return parseDeprecation(this.#headers.get('Deprecation'))
  }

  get sunset(): Date | undefined {
    return parseHttpDate(this.#headers.get('Sunset'))
  }

  get retryAfterMs(): number | undefined {
    return parseRetryAfter(this.#headers.get('Retry-After'), this.#receivedAt)
  }
}
