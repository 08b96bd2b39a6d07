import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import {
  errorCodeValues,
  operationIds,
  perKeyPlanValues,
  petStatusValues,
  planValues,
} from '../src/index.js'
import { errorStatus, openapiDocument, planLimits } from '../src/spec.js'

type Json = Record<string, unknown>

/** Every `example`/`examples` in the bundled spec, with the schema it must satisfy. */
function collectExamples(doc: Json): { where: string; schema: Json; value: unknown }[] {
  const found: { where: string; schema: Json; value: unknown }[] = []
  const resolve = (node: Json): Json => {
    const ref = node.$ref
    if (typeof ref !== 'string') return node
    return ref
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key] as Json, doc)
  }
  const visit = (node: unknown, where: string): void => {
    if (node === null || typeof node !== 'object') return
    const obj = node as Json
    const schema = obj.schema as Json | undefined
    if (schema && 'example' in obj) found.push({ where, schema, value: obj.example })
    if (schema && obj.examples && typeof obj.examples === 'object') {
      for (const [name, example] of Object.entries(obj.examples as Json)) {
        found.push({
          where: `${where}/examples/${name}`,
          schema,
          value: resolve(example as Json).value,
        })
      }
    }
    if (!schema && Array.isArray(obj.examples) && (obj.type || obj.$ref || obj.enum)) {
      obj.examples.forEach((value, i) => {
        found.push({ where: `${where}/examples/${i}`, schema: obj, value })
      })
    }
    for (const [key, child] of Object.entries(obj)) {
      if (key === 'examples' || key === 'example') continue
      visit(child, `${where}/${key}`)
    }
  }
  visit(doc.paths, '#/paths')
  visit(doc.components, '#/components')
  return found
}

describe('spec examples', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addFormat('int64', { type: 'number', validate: Number.isInteger })
  ajv.addFormat('int32', { type: 'number', validate: Number.isInteger })
  ajv.addSchema({ ...openapiDocument, $id: 'spec' } as Json)
  const examples = collectExamples(openapiDocument as unknown as Json)

  // That every schema and response has an example is the spec lint's example rule (pnpm lint).
  it('finds the examples of every operation and schema', () => {
    expect(examples.length).toBeGreaterThan(40)
    for (const [name, schema] of Object.entries(openapiDocument.components.schemas)) {
      if (!('examples' in schema)) continue
      expect(
        examples.some((e) => e.where === `#/components/schemas/${name}/examples/0`),
        name,
      ).toBe(true)
    }
  })

  it.each(examples.map((e) => [e.where, e] as const))('%s validates against its schema', (_, e) => {
    const validate = ajv.compile(rebase(e.schema))
    const ok = validate(e.value)
    expect(validate.errors ?? [], JSON.stringify(e.value)).toEqual([])
    expect(ok).toBe(true)
  })

  it('rejects an example that breaks its schema', () => {
    const pet = openapiDocument.components.schemas.Pet
    const validate = ajv.compile(rebase(pet as unknown as Json))
    expect(validate(pet.examples[0])).toBe(true)
    expect(validate({ ...pet.examples[0], id: 0 })).toBe(false)
  })
})

/** Points local `#/…` refs at the registered document so a sub-schema compiles on its own. */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"spec#/'))
}

describe('runtime constants', () => {
  it('exposes the spec enums and plan limits', () => {
    const { PetStatus, ErrorCode } = openapiDocument.components.schemas
    expect(PetStatus.enum.length, 'PetStatus in spec/openapi.yaml has no enum').toBeGreaterThan(0)
    expect(petStatusValues, 'run `pnpm generate`: PetStatus differs from the spec').toEqual(
      PetStatus.enum,
    )
    expect(errorCodeValues, 'run `pnpm generate`: ErrorCode differs from the spec').toEqual(
      ErrorCode.enum,
    )
    expect(planLimits.free).toEqual({ perMinute: 60, perDay: 1000 })
    expect(planLimits.enterprise).toEqual({ perMinute: null, perDay: null })
    expect(Object.keys(errorStatus).sort()).toEqual([...errorCodeValues].sort())
  })

  it('names every operation of the spec as the spec does', () => {
    const fromSpec: Record<string, string> = {}
    for (const [path, item] of Object.entries(openapiDocument.paths ?? {})) {
      for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
        const id = (operation as { operationId?: unknown } | undefined)?.operationId
        if (typeof id === 'string') fromSpec[`${method.toUpperCase()} ${path}`] = id
      }
    }
    expect(operationIds).toEqual(fromSpec)
  })

  it('lists the plans of x-rate-limit-plans, and those whose keys carry their numbers', () => {
    expect(planValues).toEqual(Object.keys(planLimits))
    expect(perKeyPlanValues).toEqual(
      planValues.filter((plan) => planLimits[plan].perMinute === null),
    )
  })
})

describe('integer bounds', () => {
  const bounds: { where: string; value: unknown }[] = []
  const visit = (node: unknown, where: string): void => {
    if (node === null || typeof node !== 'object') return
    for (const [key, child] of Object.entries(node)) {
      if (/^(exclusiveM|m)(in|ax)imum$/.test(key))
        bounds.push({ where: `${where}/${key}`, value: child })
      visit(child, `${where}/${key}`)
    }
  }
  visit(openapiDocument, '#')

  it('publishes only bounds that JSON numbers carry exactly', () => {
    expect(bounds.length).toBeGreaterThan(10)
    const inexact = bounds.filter(({ value }) => !Number.isSafeInteger(value))
    expect(inexact).toEqual([])
  })

  it('gives pet and category ids one range, and states the int64 bound of petId in text', () => {
    const { PetId, CategoryId, Pet, NewPet } = openapiDocument.components.schemas
    const range = (schema: Json) => [schema.type, schema.format, schema.minimum, schema.maximum]
    expect(range(PetId as Json)).toEqual(['integer', 'int64', 1, Number.MAX_SAFE_INTEGER])
    expect(range(CategoryId as Json)).toEqual(range(PetId as Json))
    expect(Pet.properties.id).toEqual({ $ref: '#/components/schemas/PetId' })
    expect(Pet.properties.categoryId).toEqual(NewPet.properties.categoryId)
    const petId = openapiDocument.components.parameters.PetId
    expect(range(petId.schema as Json)).toEqual(['integer', 'int64', 1, undefined])
    expect(petId.description).toContain('9223372036854775807')
  })

  it('refers only to named components, never into another schema', () => {
    expect(JSON.stringify(openapiDocument)).not.toMatch(/"\$ref":"#\/components\/schemas\/[^"/]+\//)
  })
})
