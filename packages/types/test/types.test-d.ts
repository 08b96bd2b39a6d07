import { describe, expectTypeOf, it } from 'vitest'
import type {
  ApiError,
  ErrorCode,
  NewPet,
  operations,
  Pet,
  PetStatus,
  paths,
} from '../src/index.js'

describe('generated types', () => {
  it('requires name and categoryId on a new pet, status optional', () => {
    expectTypeOf<{ name: string; categoryId: number }>().toExtend<NewPet>()
    expectTypeOf<{ name: string }>().not.toExtend<NewPet>()
    expectTypeOf<{ categoryId: number }>().not.toExtend<NewPet>()
    expectTypeOf<NewPet['status']>().toEqualTypeOf<PetStatus | undefined>()
  })

  it('gives a pet a numeric id and all four fields', () => {
    expectTypeOf<Pet['id']>().toEqualTypeOf<number>()
    expectTypeOf<Pet>().toEqualTypeOf<{
      id: number
      name: string
      categoryId: number
      status: PetStatus
    }>()
  })

  it('keeps PetStatus to the three states', () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<'available' | 'pending' | 'sold'>()
  })

  it('types createPet body and 201 response from the spec', () => {
    type Create = operations['createPet']
    expectTypeOf<Create['requestBody']['content']['application/json']>().toEqualTypeOf<NewPet>()
    expectTypeOf<Create['responses'][201]['content']['application/json']>().toEqualTypeOf<Pet>()
    expectTypeOf<
      Create['responses'][422]['content']['application/json']
    >().toEqualTypeOf<ApiError>()
  })

  it('types listPets query and getPet path parameters', () => {
    type Query = NonNullable<operations['listPets']['parameters']['query']>
    expectTypeOf<Query['limit']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<Query['status']>().toEqualTypeOf<PetStatus | undefined>()
    expectTypeOf<operations['getPet']['parameters']['path']['petId']>().toEqualTypeOf<number>()
    expectTypeOf<paths['/pets/{petId}']['get']>().toEqualTypeOf<operations['getPet']>()
  })

  it('types error bodies with the spec codes', () => {
    expectTypeOf<ApiError['code']>().toEqualTypeOf<ErrorCode>()
    expectTypeOf<'rate_limited'>().toExtend<ErrorCode>()
    expectTypeOf<'teapot'>().not.toExtend<ErrorCode>()
  })
})
