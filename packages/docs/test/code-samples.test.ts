import { describe, expect, it } from 'vitest'
import {
  codeSamples,
  curlLabel,
  sampleRequest,
  typescriptLabel,
  withCodeSamples,
} from '../src/code-samples.js'
import { listOperations } from '../src/openapi.js'
import { spec } from './helpers.js'

const entry = (operationId: string) => {
  const found = listOperations(spec).find((e) => e.operation.operationId === operationId)
  if (!found) throw new Error(operationId)
  return found
}

describe('sampleRequest', () => {
  it('sends bounded query examples and leaves opaque ones (the cursor) out', () => {
    expect(sampleRequest(spec, entry('listPets'))).toEqual({
      path: {},
      query: { limit: 20, status: 'available' },
      body: undefined,
    })
  })

  it('uses the first body example and the path examples', () => {
    expect(sampleRequest(spec, entry('createPet')).body).toEqual({ name: 'Rex', categoryId: 1 })
    expect(sampleRequest(spec, entry('getPet')).path).toEqual({ petId: 1 })
  })
})

describe('codeSamples', () => {
  it('writes a curl command against the first server with the key from the environment', () => {
    const [curl] = codeSamples(spec, entry('createPet'))
    expect(curl).toEqual({
      lang: 'Shell',
      label: curlLabel,
      source: [
        "curl -sS -X POST 'https://api.petstore.example/v1/pets' \\",
        '  -H "Authorization: Bearer $PETSTORE_API_KEY" \\',
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"name":"Rex","categoryId":1}'`,
      ].join('\n'),
    })
  })

  it('writes a TypeScript program using the client', () => {
    const [, typescript] = codeSamples(spec, entry('listPets'))
    expect(typescript?.label).toBe(typescriptLabel)
    expect(typescript?.source).toContain("import { createPetstoreClient } from '@petstore/client'")
    expect(typescript?.source).toContain(
      "client.GET('/pets', {\n  params: { query: { limit: 20, status: 'available' } },\n})",
    )
  })

  it('marks a deprecated operation’s samples with its sunset and successor', () => {
    for (const sample of codeSamples(spec, entry('getPet'))) {
      expect(sample.source).toContain('Deprecated (sunset 2030-12-05): use listPets instead.')
    }
  })

  it('needs a server to write against', () => {
    expect(() => codeSamples({ ...spec, servers: [] }, entry('getPet'))).toThrow(/no server/)
  })
})

describe('withCodeSamples', () => {
  it('adds curl and TypeScript samples to every operation of a copy', () => {
    const enriched = withCodeSamples(spec)
    for (const { operation } of listOperations(enriched)) {
      expect(operation['x-codeSamples']?.map((s) => s.label)).toEqual([curlLabel, typescriptLabel])
    }
    expect(listOperations(spec)[0]?.operation['x-codeSamples']).toBeUndefined()
  })
})
