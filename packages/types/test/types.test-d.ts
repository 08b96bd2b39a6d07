import { describe, expectTypeOf, it } from 'vitest'
import type {
  ApiError,
  components,
  ErrorCode,
  NewPet,
  operations,
  Pet,
  PetStatus,
  paths,
  petStatusValues,
} from '../src/index.js'
import type { openapiDocument } from '../src/spec.js'

/** The spec's schemas as the bundled document types them (property names are literal). */
type SpecSchemas = (typeof openapiDocument)['components']['schemas']
type Generated = components['schemas']

/** Each object schema of the spec, with the names of its properties. */
type SpecProperties = {
  [S in keyof SpecSchemas as SpecSchemas[S] extends { properties: object }
    ? S
    : never]: SpecSchemas[S] extends { properties: infer P } ? keyof P : never
}
/** The same schemas as generated, with the names of their properties. */
type GeneratedProperties = {
  [S in keyof SpecProperties]: keyof Generated[S & keyof Generated]
}
/** The properties of `S` that the spec gives a `default`. */
type SpecDefaulted<S extends keyof SpecSchemas> = SpecSchemas[S] extends { properties: infer P }
  ? { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P]
  : never
/** The keys of `T` that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T]

describe('generated types', () => {
  it('has a type for every schema of the spec, with the properties the spec declares', () => {
    expectTypeOf<keyof Generated>().toEqualTypeOf<keyof SpecSchemas>()
    expectTypeOf<GeneratedProperties>().toEqualTypeOf<SpecProperties>()
    expectTypeOf<keyof SpecProperties>().not.toBeNever()
  })

  it('lets a new pet leave out what the spec defaults, and gives a pet a numeric id', () => {
    expectTypeOf<SpecDefaulted<'NewPet'>>().not.toBeNever()
    expectTypeOf<SpecDefaulted<'NewPet'>>().toExtend<OptionalKeys<NewPet>>()
    expectTypeOf<NewPet['status']>().toEqualTypeOf<PetStatus | undefined>()
    expectTypeOf<Pet['id']>().toEqualTypeOf<number>()
    expectTypeOf<Omit<Pet, 'id'>>().toExtend<NewPet>()
  })

  it('types PetStatus from its runtime values', () => {
    expectTypeOf<(typeof petStatusValues)[number]>().toEqualTypeOf<PetStatus>()
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
