import { describe, expect, it } from 'vitest'
import {
  codeSamples,
  sampleBaseUrl,
  sampleLanguages,
  sampleRequest,
  withCodeSamples,
} from '../src/code-samples.js'
import { shellQuote, toPythonLiteral, toTypeScriptLiteral } from '../src/literal.js'
import { listOperations, resolve } from '../src/openapi.js'
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

describe('request bodies and answers without one', () => {
  const operations = listOperations(spec)

  it('sends each body as the media type its operation declares, with its first example', () => {
    const withBody = operations.filter(({ operation }) => operation.requestBody)
    expect(withBody.length, 'the spec has operations with a body').toBeGreaterThan(0)
    for (const entry of withBody) {
      const { operation } = entry
      const body = resolve(spec, operation.requestBody ?? {})
      const [type, media] = Object.entries(body.content ?? {})[0] ?? []
      const example = Object.values(media?.examples ?? {})[0]
      const value = example && resolve(spec, example).value
      expect(value, `${operation.operationId} has a body example`).toBeDefined()
      const [curl, typescript, javascript, python] = codeSamples(spec, entry).map((s) => s.source)
      const name = operation.operationId
      expect(curl, name).toContain(`-H 'Content-Type: ${type}'`)
      expect(curl, name).toContain(`-d ${shellQuote(JSON.stringify(value))}`)
      expect(typescript, name).toContain(`body: ${toTypeScriptLiteral(value)},`)
      expect(javascript, name).toContain(`'Content-Type': '${type}'`)
      expect(javascript, name).toContain(`body: JSON.stringify(${toTypeScriptLiteral(value)}),`)
      expect(python, name).toContain(`"Content-Type": "${type}",`)
      expect(python, name).toContain(`data=json.dumps(${toPythonLiteral(value)}).encode(),`)
    }
  })

  it('shows the status of an answer without a body (a 204), in every language', () => {
    const bodiless = operations.filter(({ operation }) => {
      const success = Object.entries(operation.responses ?? {}).find(([code]) => /^2/.test(code))
      return (
        success && resolve<{ content?: object }>(spec, success[1] as object).content === undefined
      )
    })
    expect(bodiless.length, 'the spec has answers without a body').toBeGreaterThan(0)
    for (const entry of bodiless) {
      const [curl, typescript, javascript, python] = codeSamples(spec, entry).map((s) => s.source)
      const name = entry.operation.operationId
      expect(curl, name).toMatch(/^curl -sSi /m)
      expect(typescript, name).toContain('const { response, error } = await client.')
      expect(typescript, name).toContain('console.log(response.status)')
      expect(javascript, name).not.toContain('const body = await response.json()')
      expect(javascript, name).toContain('console.log(response.status)')
      expect(python, name).toContain('    print(response.status)')
    }
  })

  it('writes the samples of another request, such as one for a resource of the reader’s', () => {
    const updatePet = entry('updatePet')
    const request = { path: { petId: 42 }, query: {}, body: { name: 'Max' } }
    const [curl, typescript] = codeSamples(spec, updatePet, 'http://h/v1', request)
    expect(curl?.source).toContain(`'http://h/v1/pets/42'`)
    expect(curl?.source).toContain(`-d '{"name":"Max"}'`)
    expect(typescript?.source).toContain(
      "params: { path: { petId: 42 } },\n  body: { name: 'Max' },",
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
