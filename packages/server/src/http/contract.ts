/**
 * The spec's operations as the type of the server's handlers, with openapi-typescript's
 * `operations` as the contract (as ts-rest's `router(contract, impl)` or oRPC's `implement()`
 * do with theirs): the handler table must have one entry per operation of the spec, each
 * handler's request is typed from its operation (defaults applied), and what it returns must be
 * one of the operation's declared responses. A spec edit is then a compile error wherever code
 * must follow it: `pnpm typecheck` names a missing handler, an undeclared status, a wrong body
 * or a missing required header. Which headers are the handler's to write is response-headers.ts'.
 *
 * @example
 * ```ts
 * const getPet: OperationHandler<'getPet'> = async (request) => {
 *   const pet = await store.pets.get(request.params.petId)
 *   return pet === undefined
 *     ? problem('unknownId', { resource: 'pet', id: String(request.params.petId) })
 *     : { status: 200, body: pet }
 * }
 * ```
 */
import type { ErrorCodeStatus, OperationFacts, OperationId, operations } from '@petstore/types'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiProblem } from '../errors.js'
import type { MaybePromise } from '../maybe-promise.js'
import type { CallbackHook } from './callback-hooks.js'
import type { WriterOf } from './response-headers.js'

/**
 * The operations a handler answers: all but OPTIONS, which http/methods.ts answers for every
 * path from the spec (HEAD follows GET).
 */
export type HandledOperationId = {
  [K in OperationId]: OperationFacts[K]['method'] extends 'options' | 'head' ? never : K
}[OperationId]

type Flat<T> = { [P in keyof T]: T[P] } & {}
/** `T` with the properties named `D` required: the server applied their defaults. */
type Defaulted<T, D> = Flat<Omit<T, D & keyof T> & Required<Pick<T, D & keyof T>>>
/** A parameter section (`query?: {...}` or `query?: never`) as the handler sees it. */
type Section<T, D> = [NonNullable<T>] extends [never]
  ? Record<string, never>
  : Defaulted<NonNullable<T>, D>
type Lowercased<T> = { [H in keyof T as Lowercase<H & string>]: T[H] }

type Parameters<K extends OperationId> = operations[K]['parameters']
type Defaults<K extends OperationId> = OperationFacts[K]['defaults']
/** A JSON media type (json-body.ts reads every one): `application/json`, `application/*+json`. */
type JsonMediaType = 'application/json' | `application/${string}+json`
type RequestBody<K extends OperationId> = operations[K] extends {
  requestBody: { content: infer Content }
}
  ? Defaulted<Content[keyof Content & JsonMediaType], Defaults<K>['body']>
  : undefined

/** The route generic of an operation: what its validated request holds. */
export interface OperationRequest<K extends OperationId> {
  Querystring: Section<Parameters<K>['query'], Defaults<K>['query']>
  Params: Section<Parameters<K>['path'], Defaults<K>['path']>
  Headers: Lowercased<Section<Parameters<K>['header'], Defaults<K>['header']>>
  Body: RequestBody<K>
}

type Responses<K extends OperationId> = operations[K]['responses']
type StatusOf<K extends OperationId> = keyof Responses<K> & number
/** The declared 1xx-3xx statuses: what a handler returns; errors are problems. */
type SuccessStatus<K extends OperationId> = {
  [S in StatusOf<K>]: `${S}` extends `${1 | 2 | 3}${string}` ? S : never
}[StatusOf<K>]
type ErrorStatus<K extends OperationId> = Exclude<StatusOf<K>, SuccessStatus<K>>

type BodyOf<K extends OperationId, S extends StatusOf<K>> = Responses<K>[S] extends {
  content: { 'application/json': infer B }
}
  ? B | PreSerialized<B>
  : undefined

type HeaderFacts<K extends OperationId, S> = S extends keyof OperationFacts[K]['successHeaders']
  ? OperationFacts[K]['successHeaders'][S]
  : never
type HeaderValue<K extends OperationId, S extends StatusOf<K>, H> = Responses<K>[S] extends {
  headers: infer All
}
  ? H extends keyof All
    ? All[H]
    : never
  : never
/** The headers of status `S` whose writer is the handler (response-headers.ts). */
type HandlerHeaderNames<K extends OperationId, S, Required extends boolean> = {
  [H in keyof HeaderFacts<K, S>]: HeaderFacts<K, S>[H] extends { component: infer C }
    ? WriterOf<C> extends 'handler'
      ? HeaderFacts<K, S>[H] extends { required: Required }
        ? H
        : never
      : never
    : never
}[keyof HeaderFacts<K, S>]
/** The headers a handler writes for status `S`, the required ones required. */
type HandlerHeaders<K extends OperationId, S extends StatusOf<K>> = Flat<
  { [H in HandlerHeaderNames<K, S, true>]: HeaderValue<K, S, H> } & {
    [H in HandlerHeaderNames<K, S, false>]?: HeaderValue<K, S, H>
  }
>
type HeadersField<K extends OperationId, S extends StatusOf<K>> = [
  HandlerHeaderNames<K, S, boolean>,
] extends [never]
  ? { headers?: never }
  : [HandlerHeaderNames<K, S, true>] extends [never]
    ? { headers?: HandlerHeaders<K, S> }
    : { headers: HandlerHeaders<K, S> }

/** One declared success response: its status, its body and the headers the handler owns. */
export type OperationResponse<K extends OperationId> = {
  [S in SuccessStatus<K>]: Flat<{ status: S; body: BodyOf<K, S> } & HeadersField<K, S>>
}[SuccessStatus<K>]

/** What a handler may answer: a declared success response, or a problem of a declared status. */
export type OperationResult<K extends OperationId> =
  | OperationResponse<K>
  | ApiProblem<ErrorStatus<K> & ErrorCodeStatus[keyof ErrorCodeStatus]>

/**
 * A handler answers at once when it can (a read of SQLite or a cache), else with a promise: a
 * promise per request would cost a microtask on every read (maybe-promise.ts).
 */
export type OperationHandler<K extends OperationId> = (
  request: FastifyRequest<OperationRequest<K>>,
  reply: FastifyReply,
) => MaybePromise<OperationResult<K>>

/** The code side of one operation: its handler and any route-level hooks. */
export interface OperationRoute<K extends OperationId> {
  handler: OperationHandler<K>
  onRequest?: CallbackHook[]
}

/** One route per handled operation: a missing or misnamed one is a compile error. */
export type OperationRoutes = { [K in HandledOperationId]: OperationRoute<K> }

declare const preSerializedBody: unique symbol

/**
 * A body that is already JSON text, sent byte for byte instead of serialized again (the store
 * builds a listing's page as JSON: `Page.json` in store/resource.ts). The one escape from serialization by the
 * spec's response schema: whoever makes one vouches that the text matches `T`'s schema, with a
 * test that compares the bytes (the store conformance suite does for pages).
 */
export class PreSerialized<T> {
  declare readonly [preSerializedBody]: T
  constructor(readonly json: string) {}
}

/** `json` as the body of type `T`, without serializing it again (see `PreSerialized`). */
export function preSerialized<T>(json: string): PreSerialized<T> {
  return new PreSerialized<T>(json)
}
