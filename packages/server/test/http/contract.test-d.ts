/**
 * The handler table's type is the spec's operations: these are the compile errors a spec edit
 * or a wrong handler produces (`pnpm typecheck` fails on them; the extension test in
 * scripts/test/extend-spec.test.ts shows one for a real new operation).
 */
import type { OperationId, Pet, Pets } from '@petstore/types'
import { describe, expectTypeOf, it } from 'vitest'
import { problem } from '../../src/errors.js'
import {
  type HandledOperationId,
  type OperationHandler,
  type OperationRequest,
  type OperationResponse,
  type OperationRoutes,
  preSerialized,
} from '../../src/http/contract.js'

const pet: Pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }

describe('the handler table', () => {
  it('has one entry per operation a handler answers (OPTIONS is answered for every path)', () => {
    expectTypeOf<keyof OperationRoutes>().toEqualTypeOf<HandledOperationId>()
    expectTypeOf<HandledOperationId>().toExtend<OperationId>()
    expectTypeOf<'getOpenApiDocumentOptions'>().not.toExtend<HandledOperationId>()
  })
})

describe('inputs', () => {
  it('types the query with its defaults applied, the path and the body', () => {
    expectTypeOf<OperationRequest<'listPets'>['Querystring']['limit']>().toEqualTypeOf<number>()
    expectTypeOf<OperationRequest<'listPets'>['Querystring']['cursor']>().toEqualTypeOf<
      string | undefined
    >()
    expectTypeOf<OperationRequest<'getPet'>['Params']['petId']>().toEqualTypeOf<number>()
    expectTypeOf<OperationRequest<'createPet'>['Body']['status']>().toEqualTypeOf<Pet['status']>()
    expectTypeOf<OperationRequest<'createPet'>['Headers']['idempotency-key']>().toEqualTypeOf<
      string | undefined
    >()
  })
})

describe('results', () => {
  it('accepts the declared responses, a pre-serialized body and a declared problem', () => {
    const list: OperationHandler<'listPets'> = async () => ({
      status: 200,
      body: preSerialized<Pets>('[]'),
      headers: { Link: '</v1/pets?limit=20&cursor=x>; rel="next"' },
    })
    const get: OperationHandler<'getPet'> = async () =>
      Math.random() < 0.5
        ? { status: 200, body: pet, headers: { ETag: '"x"' } }
        : problem('unknownId', { resource: 'pet', id: '1' })
    expectTypeOf(list).toBeFunction()
    expectTypeOf(get).toBeFunction()
  })

  it('refuses an undeclared status, a wrong body, a missing required header', () => {
    // @ts-expect-error 201 is not a declared response of getPet
    const undeclared: OperationHandler<'getPet'> = async () => ({ status: 201, body: pet })
    // @ts-expect-error getPet's 200 requires its ETag
    const noTag: OperationHandler<'getPet'> = async () => ({ status: 200, body: pet })
    // @ts-expect-error a page is an array of pets, not one
    const wrongBody: OperationHandler<'listPets'> = async () => ({ status: 200, body: pet })
    // @ts-expect-error createPet's 201 requires Location
    const noLocation: OperationHandler<'createPet'> = async () => ({ status: 201, body: pet })
    const undeclaredProblem: OperationHandler<'listPets'> = async () =>
      // @ts-expect-error listPets declares no 404
      problem('unknownId', { resource: 'pet', id: '1' })
    // @ts-expect-error the pipeline writes X-Request-Id; a handler does not
    const pipelineHeader: OperationHandler<'listPets'> = async () => ({
      status: 200,
      body: [pet],
      headers: { 'X-Request-Id': 'x' },
    })
    expectTypeOf([
      undeclared,
      noTag,
      wrongBody,
      noLocation,
      undeclaredProblem,
      pipelineHeader,
    ]).toBeArray()
  })

  it('leaves out of a result the headers other writers own (http/response-headers.ts)', () => {
    // getPet's Link is its deprecation links, on every answer: the pipeline's, not its handler's.
    type Got = Extract<OperationResponse<'getPet'>, { status: 200 }>
    expectTypeOf<keyof NonNullable<Got['headers']>>().toEqualTypeOf<'ETag'>()
    type Created = Extract<OperationResponse<'createPet'>, { status: 201 }>
    expectTypeOf<keyof NonNullable<Created['headers']>>().toEqualTypeOf<
      'Location' | 'ETag' | 'Idempotent-Replayed'
    >()
    type Page = Extract<OperationResponse<'listPets'>, { status: 200 }>
    expectTypeOf<keyof NonNullable<Page['headers']>>().toEqualTypeOf<'Link'>()
  })
})
