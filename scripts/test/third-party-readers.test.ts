/**
 * The canonical spec, `spec/openapi.yaml` itself (not the bundle), as other people's tools read
 * it, the strict YAML 1.2 readers first (the ones that read a YAML 1.1 merge key as a literal
 * `<<` header): swagger-parser and ReadMe's parser read what our own stack reads (Redocly, which
 * bundles it) and validate it, Prism's mock, started as a process, answers every response of
 * every operation with every header the spec declares for it, and typed-openapi's generated
 * client types name every declared response header. Operations, statuses and headers come from
 * the spec as Redocly reads it; each failure names the tool and the JSON pointer of what it got
 * wrong.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { type OperationAt, operationsOf, resolveRef } from '@petstore/types/openapi/source'
import { parse as readmeParse, validate as readmeValidate } from '@readme/openapi-parser'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../src/free-port.js'
import { redoclyBundle } from '../src/generate-types.js'
import { isObject, type Json } from '../src/spec-diff/load.js'
import { root, spec } from './canonical-spec.js'
import { cleanEnv, type Daemon, mustRun, startDaemon } from './release/processes.js'

const require = createRequire(import.meta.url)

/** A key as a JSON pointer (RFC 6901) writes it. */
const token = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

/** One response of one operation, as the spec declares it, `$ref` followed. */
interface Declared {
  at: OperationAt
  status: string
  /** Where the response is declared in place: the operation's entry, or the shared response. */
  pointer: string
  headers: string[]
}

/** The spec as our own stack reads it (Redocly's bundle, header sets and all): the reference. */
let meant: Json
let declared: Declared[]

beforeAll(() => {
  meant = redoclyBundle(spec)
  declared = operationsOf(meant).flatMap((at) =>
    Object.entries((at.operation.responses as Json | undefined) ?? {}).map(([status, entry]) => {
      const ref = isObject(entry) && typeof entry.$ref === 'string' ? entry.$ref : undefined
      const response = resolveRef<Json>(meant, entry as Json)
      const own = `#/${['paths', at.path, at.method, 'responses', status].map(token).join('/')}`
      const headers = Object.keys(isObject(response.headers) ? response.headers : {})
      return { at, status, pointer: ref ?? own, headers }
    }),
  )
}, 60_000)

const headerPointer = (response: Declared, header: string) =>
  `${response.pointer}/headers/${token(header)}`

const operationName = ({ at, status }: Declared) =>
  `${at.method.toUpperCase()} ${at.path} ${status} (${String(at.operation.operationId)})`

it('derives its lists from a spec with operations, responses and shared headers', () => {
  expect(new Set(declared.map(({ at }) => at)).size).toBeGreaterThan(3)
  expect(declared.length).toBeGreaterThan(30)
  expect(declared.every(({ headers }) => headers.length > 0)).toBe(true)
})

/**
 * Where a tool's reading of the file differs from Redocly's, as `tool at pointer: ...` lines;
 * the first 20, then how many more.
 */
function differences(tool: string, read: unknown, reference: unknown): string[] {
  const found: string[] = []
  const walk = (a: unknown, b: unknown, at: string) => {
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        const next = `${at}/${token(key)}`
        if (!Object.hasOwn(b, key)) found.push(`${tool} at ${next}: reads a key Redocly does not`)
        else if (!Object.hasOwn(a, key)) found.push(`${tool} at ${next}: misses what Redocly reads`)
        else walk(a[key], b[key], next)
      }
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (const [index, item] of a.entries()) walk(item, b[index], `${at}/${index}`)
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      found.push(`${tool} at ${at}: reads ${JSON.stringify(a)}, Redocly ${JSON.stringify(b)}`)
    }
  }
  walk(read, reference, '#')
  const more = found.length - 20
  return more > 0 ? [...found.slice(0, 20), `${tool}: and ${more} more`] : found
}

describe('@apidevtools/swagger-parser', () => {
  it('reads the file as written', async () => {
    expect(differences('swagger-parser parse', await SwaggerParser.parse(spec), meant)).toEqual([])
  })

  it('validates it', async () => {
    const errors = await SwaggerParser.validate(spec).then(
      () => [],
      (error: Error & { details?: { instancePath: string; message: string }[] }) =>
        error.details?.map(
          (d) => `swagger-parser validate at #${d.instancePath}: ${d.message}`,
        ) ?? [`swagger-parser validate: ${error.message}`],
    )
    expect(errors).toEqual([])
  })
})

describe('@readme/openapi-parser', () => {
  it('reads the file as written', async () => {
    expect(differences('@readme/openapi-parser parse', await readmeParse(spec), meant)).toEqual([])
  })

  // Its messages show the dereferenced document around the fault, not a pointer: where it read
  // the file otherwise, the test above names the place.
  it('validates it, without a warning', async () => {
    const result = await readmeValidate(spec)
    const errors = result.valid ? [] : result.errors
    const lines = [...errors, ...result.warnings].map(
      ({ message }) => `@readme/openapi-parser validate: ${message}`,
    )
    expect(lines).toEqual([])
    expect(result.valid).toBe(true)
  })
})

/** A value for a parameter or body, from its example (or the first of its examples). */
function exampleOf(node: Json): unknown {
  if (node.example !== undefined) return node.example
  if (isObject(node.examples)) {
    const first = Object.values(node.examples)[0]
    return first === undefined ? undefined : resolveRef<Json>(meant, first as Json).value
  }
  const schema = isObject(node.schema) ? resolveRef<Json>(meant, node.schema) : {}
  return Array.isArray(schema.examples) ? schema.examples[0] : schema.default
}

/**
 * The request that makes Prism answer `status` for the operation: its path parameters and
 * required parameters from their examples, its body from its example (under the media type it
 * is declared with), its credentials as
 * Prism checks them (any bearer token; an API key in its header), and `Prefer: code=` (Prism's
 * way of choosing which declared response to mock).
 */
function prismRequest({ at, status }: Declared): { url: string; init: RequestInit } {
  const headers = new Headers({ prefer: `code=${status}` })
  let path = at.path
  const query = new URLSearchParams()
  for (const parameter of at.parameters) {
    if (parameter.in !== 'path' && parameter.required !== true) continue
    const value = exampleOf(parameter)
    if (value === undefined)
      throw new Error(`${at.path}: parameter ${parameter.name} has no example`)
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, String(value))
    else if (parameter.in === 'query') query.set(String(parameter.name), String(value))
    else if (parameter.in === 'header') headers.set(String(parameter.name), String(value))
  }
  const requirement = ((at.operation.security ?? meant.security ?? []) as Json[])[0] ?? {}
  const schemes = (meant.components as Json).securitySchemes as Record<string, Json>
  for (const name of Object.keys(requirement)) {
    const scheme = schemes[name] ?? {}
    if (scheme.type === 'http' && scheme.scheme === 'bearer')
      headers.set('authorization', 'Bearer any')
    else if (scheme.type === 'apiKey' && scheme.in === 'header')
      headers.set(String(scheme.name), 'any')
    else throw new Error(`security scheme ${name}: the test does not know how Prism checks it`)
  }
  let body: string | undefined
  const content = (at.operation.requestBody as Json | undefined)?.content as Json | undefined
  // The body the operation declares, under its own media type (a merge patch for a PATCH).
  const [type, media] = Object.entries(content ?? {})[0] ?? []
  if (type !== undefined) {
    headers.set('content-type', type)
    body = JSON.stringify(exampleOf(media as Json))
  }
  const search = query.size > 0 ? `?${query}` : ''
  return { url: `${path}${search}`, init: { method: at.method.toUpperCase(), headers, body } }
}

describe('Prism (@stoplight/prism-cli) mocking the file', { timeout: 120_000 }, () => {
  let prism: Daemon
  let base: string

  beforeAll(async () => {
    const cli = require.resolve('@stoplight/prism-cli/package.json')
    const bin = join(dirname(cli), JSON.parse(readFileSync(cli, 'utf8')).bin.prism)
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    // Its own CORS answer would add Access-Control-* headers the spec may not declare.
    const args = [bin, 'mock', '--cors=false', '--host', '127.0.0.1', '--port', String(port), spec]
    prism = startDaemon(process.execPath, args, { cwd: root, env: cleanEnv() })
    const deadline = Date.now() + 90_000
    while (!prism.output().includes('Prism is listening')) {
      if (prism.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`Prism did not start:\n${prism.output()}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }, 120_000)
  afterAll(() => prism?.stop())

  it('answers each response of each operation with every header the spec declares', async () => {
    const failures: string[] = []
    for (const response of declared) {
      if (!/^\d{3}$/.test(response.status)) {
        failures.push(
          `Prism at ${response.pointer}: Prefer: code= takes a status, not ${response.status}`,
        )
        continue
      }
      const { url, init } = prismRequest(response)
      const answer = await fetch(`${base}${url}`, init)
      const text = await answer.text()
      if (String(answer.status) !== response.status) {
        failures.push(
          `Prism at ${response.pointer}: ${operationName(response)} was answered ${answer.status}: ${text.slice(0, 200)}`,
        )
        continue
      }
      for (const header of response.headers) {
        if (answer.headers.has(header)) continue
        failures.push(
          `Prism at ${headerPointer(response, header)}: missing from ${operationName(response)}`,
        )
      }
    }
    expect(failures).toEqual([])
  })
})

/** The property names of a type literal, index signatures aside. */
function members(node: ts.TypeNode | undefined): Map<string, ts.TypeNode | undefined> {
  if (node === undefined || !ts.isTypeLiteralNode(node)) return new Map()
  return new Map(
    node.members
      .filter(ts.isPropertySignature)
      .map((member) => [
        (member.name as ts.Identifier | ts.StringLiteral | ts.NumericLiteral).text,
        member.type,
      ]),
  )
}

const literal = (node: ts.TypeNode | undefined) =>
  node !== undefined && ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)
    ? node.literal.text
    : undefined

describe('typed-openapi generating a client from the file', { timeout: 120_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-typed-openapi-'))
  /** `METHOD path` -> status -> the response header names its endpoint type gives. */
  const endpoints = new Map<string, Map<string, Set<string>>>()

  beforeAll(async () => {
    // Its CLI, as a user runs it; it writes its output relative to its working directory.
    // Its exports leave out package.json, where its bin is named.
    const bin = join(root, 'scripts/node_modules/typed-openapi/bin.js')
    await mustRun(process.execPath, [bin, spec, '--output', 'client.ts'], { cwd: work })
    const output = join(work, 'client.ts')
    const source = ts.createSourceFile(output, readFileSync(output, 'utf8'), ts.ScriptTarget.Latest)
    const visit = (node: ts.Node) => {
      if (ts.isTypeAliasDeclaration(node)) {
        const fields = members(node.type)
        const [method, path] = [literal(fields.get('method')), literal(fields.get('path'))]
        if (method !== undefined && path !== undefined) {
          const byStatus = new Map<string, Set<string>>()
          for (const [status, headers] of members(fields.get('responseHeaders'))) {
            byStatus.set(status, new Set(members(headers).keys()))
          }
          endpoints.set(`${method} ${path}`, byStatus)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }, 120_000)
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  // typed-openapi leaves deprecated operations out of what it generates.
  const generated = () => declared.filter(({ at }) => at.operation.deprecated !== true)

  it('generates every operation that is not deprecated, and no other', () => {
    const expected = new Set(generated().map(({ at }) => `${at.method.toUpperCase()} ${at.path}`))
    expect(expected.size).toBeGreaterThan(0)
    expect(new Set(endpoints.keys())).toEqual(expected)
  })

  it('names every declared response header in the endpoint types', () => {
    const failures: string[] = []
    for (const response of generated()) {
      const { at, status } = response
      const names = endpoints.get(`${at.method.toUpperCase()} ${at.path}`)?.get(status)
      for (const header of response.headers) {
        if (names?.has(header)) continue
        failures.push(
          `typed-openapi at ${headerPointer(response, header)}: not in the responseHeaders of ${operationName(response)}`,
        )
      }
    }
    expect(failures).toEqual([])
  })
})
