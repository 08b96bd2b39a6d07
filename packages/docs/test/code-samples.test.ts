import { describe, expect, it } from 'vitest'
import {
  codeSamples,
  sampleBaseUrl,
  sampleLanguages,
  sampleRequest,
  withCodeSamples,
} from '../src/code-samples.js'
import { shellQuote, toPythonLiteral } from '../src/literal.js'
import { listOperations } from '../src/openapi.js'
import { createPetExample, spec } from './helpers.js'

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
    expect(createPetExample, 'createPet in spec/openapi.yaml has no body example').toBeDefined()
    expect(sampleRequest(spec, entry('createPet')).body).toEqual(createPetExample)
    expect(sampleRequest(spec, entry('getPet')).path).toEqual({ petId: 1 })
  })
})

describe('codeSamples', () => {
  it('writes a curl command against the first server with the key from the environment', () => {
    const [curl] = codeSamples(spec, entry('createPet'))
    expect(curl).toEqual({
      lang: 'Shell',
      label: 'curl',
      source: [
        "curl -sS -X POST 'https://api.petstore.example/v1/pets' \\",
        '  -H "Authorization: Bearer $PETSTORE_API_KEY" \\',
        "  -H 'Content-Type: application/json' \\",
        `  -d ${shellQuote(JSON.stringify(createPetExample))}`,
      ].join('\n'),
    })
  })

  it('writes a TypeScript program using the client', () => {
    const [, typescript] = codeSamples(spec, entry('listPets'))
    expect(typescript?.label).toBe('TypeScript')
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

  it('writes JavaScript fetch and Python urllib programs', () => {
    const [, , javascript, python] = codeSamples(spec, entry('createPet'))
    expect(javascript?.source).toContain("const response = await fetch(url, {\n  method: 'POST',")
    expect(python?.source).toContain(
      `data=json.dumps(${toPythonLiteral(createPetExample)}).encode(),`,
    )
  })
})

describe('sampleBaseUrl', () => {
  it('is PETSTORE_DOCS_API_URL, else the spec’s first server, without a trailing slash', () => {
    expect(sampleBaseUrl(spec)).toBe(spec.servers?.[0]?.url)
    expect(sampleBaseUrl(spec, { PETSTORE_DOCS_API_URL: 'https://pets.test/v1/' })).toBe(
      'https://pets.test/v1',
    )
  })
})

describe('withCodeSamples', () => {
  it('adds a sample in every language to every operation of a copy', () => {
    const enriched = withCodeSamples(spec)
    for (const { operation } of listOperations(enriched)) {
      expect(operation['x-codeSamples']?.map((s) => s.label)).toEqual(
        sampleLanguages.map((l) => l.label),
      )
    }
    expect(listOperations(spec)[0]?.operation['x-codeSamples']).toBeUndefined()
  })
})
