import { expect, it } from 'vitest'
import { listOperations, resolve, type Schema } from '../src/openapi.js'
import { tryItData } from '../src/try-it-data.js'
import { spec } from './helpers.js'

it('projects every operation, in the order the spec lists them, with its servers', () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  expect(data.apiBaseUrl).toBe('https://pets.test/v1')
  expect(data.servers.map((s) => s.url)).toEqual(spec.servers?.map((s) => s.url))
  expect(data.operations.map((o) => [o.operationId, o.method, o.path])).toEqual(
    listOperations(spec).map((e) => [e.operation.operationId, e.method, e.path]),
  )
})

it('carries each parameter as the spec declares it: where, whether required, its example and values', () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  for (const { operation, parameters } of listOperations(spec)) {
    const projected = data.operations.find((o) => o.operationId === operation.operationId)
    const sent = parameters.filter((p) => p.in !== 'cookie')
    expect(
      projected?.parameters.map((p) => `${p.in} ${p.name}`),
      operation.operationId,
    ).toEqual(sent.map((p) => `${p.in} ${p.name}`))
    for (const parameter of sent) {
      const where = `${operation.operationId} ${parameter.in} ${parameter.name}`
      const got = projected?.parameters.find(
        (p) => p.name === parameter.name && p.in === parameter.in,
      )
      const schema = parameter.schema && resolve<Schema>(spec, parameter.schema)
      expect(got?.required, where).toBe(parameter.required === true)
      expect(got?.enum, where).toEqual(
        Array.isArray(schema?.enum) ? schema.enum.map(String) : undefined,
      )
      if (parameter.example !== undefined)
        expect(got?.example, where).toBe(String(parameter.example))
    }
  }
})

it("carries each request body's media type, whether it is required and its first example", () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  const mediaTypes = new Set<string>()
  for (const { operation } of listOperations(spec)) {
    const projected = data.operations.find((o) => o.operationId === operation.operationId)
    const body = operation.requestBody && resolve(spec, operation.requestBody)
    // The spec's bodies are JSON of one media type each: what the console sends is that one.
    const [type, media] = Object.entries(body?.content ?? {})[0] ?? []
    if (type) mediaTypes.add(type)
    expect(projected?.bodyMediaType, operation.operationId).toBe(type)
    expect(projected?.bodyRequired, operation.operationId).toBe(
      body === undefined ? undefined : body.required === true,
    )
    const first = Object.values(media?.examples ?? {})[0]
    expect(
      projected?.body === undefined ? undefined : JSON.parse(projected.body),
      operation.operationId,
    ).toEqual(first && resolve(spec, first).value)
  }
  expect(mediaTypes.size, 'the spec declares request bodies').toBeGreaterThan(0)
})

it("carries each operation's deprecation and its sunset day, as the spec declares them", () => {
  const data = tryItData(spec, 'https://pets.test/v1')
  for (const { operation } of listOperations(spec)) {
    const projected = data.operations.find((o) => o.operationId === operation.operationId)
    const sunset = operation['x-sunset']
    expect(projected?.deprecated, operation.operationId).toBe(operation.deprecated === true)
    expect(projected?.sunset, operation.operationId).toBe(
      sunset === undefined ? undefined : new Date(sunset).toISOString().slice(0, 10),
    )
  }
})
