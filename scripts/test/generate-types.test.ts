import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lifecycleOf, operationsOf } from '@petstore/types/openapi/source'
import ts from 'typescript'
import { describe, expect, it, onTestFinished } from 'vitest'
import { parse } from 'yaml'
import { renderFacts, renderGenerated, staleFiles } from '../src/generate-types.js'
import {
  renderOperationFacts,
  renderRequestHeaders,
  renderRequestMediaTypes,
  renderResponseHeaderTypes,
} from '../src/operation-facts.js'
import { HEADER_SET, HEADER_SETS, withoutHeaderSets } from '../src/spec-lint/header-sets.js'
import { plainYamlOptions } from '../src/spec-lint/plain-yaml.js'

const root = new URL('../../', import.meta.url).pathname
const committed = join(root, 'packages/types/src/generated')

describe('generate-types drift check', () => {
  it('finds the committed generated files current against spec/openapi.yaml', async () => {
    expect(await staleFiles()).toEqual([])
  })

  it("leaves the spec's header sets out of the bundle, whose responses carry them in full", async () => {
    const specPath = join(root, 'spec/openapi.yaml')
    const source = parse(readFileSync(specPath, 'utf8'), plainYamlOptions)
    const listed = source.paths['/pets'].get.responses['200']
    expect(listed[HEADER_SET]).toBe('limited')
    const limited = source[HEADER_SETS].limited.members
    expect(Object.keys(limited).length).toBeGreaterThan(0)
    const json = (await renderGenerated(specPath)).get('openapi.json') ?? ''
    const bundle = JSON.parse(json)
    expect(Object.keys(bundle)).not.toContain(HEADER_SETS)
    expect(json).not.toContain(`"${HEADER_SET}"`)
    expect(bundle.paths['/pets'].get.responses['200'].headers).toMatchObject(limited)
    // The rest of the document as written: only the header sets are left out.
    expect(bundle).toStrictEqual(withoutHeaderSets(source))
  })

  it('reports both files stale when a description in the spec changes', async () => {
    const work = mkdtempSync(join(tmpdir(), 'petstore-drift-'))
    onTestFinished(() => rmSync(work, { recursive: true, force: true }))
    const spec = join(work, 'openapi.yaml')
    const original = readFileSync(join(root, 'spec/openapi.yaml'), 'utf8')
    const schemas = original.indexOf('\n  schemas:\n')
    const edited =
      original.slice(0, schemas) +
      original
        .slice(schemas)
        .replace(/(\n +description: )(?!\|)/, '$1Reworded for the drift test. ')
    expect(edited).not.toBe(original)
    writeFileSync(spec, edited)
    cpSync(committed, join(work, 'out'), { recursive: true })
    expect(await staleFiles({ specPath: spec, outDir: join(work, 'out') })).toEqual([
      'openapi.json',
      'schema.ts',
    ])
    const fresh = await renderGenerated(spec)
    expect(fresh.get('schema.ts')).toContain('Reworded for the drift test.')
  })

  it('reports facts.ts stale when a plan is added to x-rate-limit-plans', async () => {
    const work = mkdtempSync(join(tmpdir(), 'petstore-drift-'))
    onTestFinished(() => rmSync(work, { recursive: true, force: true }))
    const spec = join(work, 'openapi.yaml')
    const original = readFileSync(join(root, 'spec/openapi.yaml'), 'utf8')
    const edited = original.replace(
      /\nx-rate-limit-plans:\n/,
      '\nx-rate-limit-plans:\n  team:\n    perMinute: 120\n    perDay: 5000\n',
    )
    expect(edited).not.toBe(original)
    writeFileSync(spec, edited)
    cpSync(committed, join(work, 'out'), { recursive: true })
    expect(await staleFiles({ specPath: spec, outDir: join(work, 'out') })).toContain('facts.ts')
    const facts = (await renderGenerated(spec)).get('facts.ts')
    expect(facts).toContain(
      'export type Plan = "team" | "free" | "pro" | "business" | "enterprise"',
    )
  })
})

describe('renderFacts', () => {
  it('derives Plan, the per-key plans, OperationId and operationIds from the spec', () => {
    const facts = renderFacts({
      'x-rate-limit-plans': {
        free: { perMinute: 1, perDay: 2 },
        custom: { perMinute: null, perDay: null },
      },
      paths: { '/things/{id}': { get: { operationId: 'getThing' }, delete: {} } },
    })
    expect(facts).toContain('export type Plan = "free" | "custom"')
    expect(facts).toContain('export const perKeyPlanValues: readonly Plan[] = ["custom"]')
    expect(facts).toContain('export type OperationId = "getThing"')
    expect(facts).toContain('  "GET /things/{id}": "getThing",')
  })
})

describe('renderOperationFacts', () => {
  it('names the defaults the server applies and the component of each success header', () => {
    const lines = renderOperationFacts({
      paths: {
        '/things': {
          parameters: [{ $ref: '#/components/parameters/Size' }],
          post: {
            operationId: 'makeThing',
            parameters: [{ name: 'dry', in: 'query', schema: { type: 'boolean' } }],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    properties: {
                      kind: { $ref: '#/components/schemas/Kind', default: 'plain' },
                      name: { type: 'string' },
                    },
                  },
                },
              },
            },
            responses: {
              201: {
                headers: {
                  Location: { $ref: '#/components/headers/Where' },
                  'X-Trace': { schema: { type: 'string' } },
                },
              },
              400: { headers: { 'X-Error': { schema: { type: 'string' } } } },
            },
          },
        },
      },
      components: {
        parameters: { Size: { name: 'size', in: 'query', schema: { default: 20 } } },
        schemas: { Kind: { enum: ['plain', 'fancy'] } },
        headers: { Where: { required: true, schema: { type: 'string' } } },
      },
    }).join('\n')
    expect(lines).toContain('defaults: { query: "size"; path: never; header: never; body: "kind" }')
    expect(lines).toContain(
      '201: { "Location": { component: "Where"; required: true }; "X-Trace": { component: null; required: false } }',
    )
    const success = lines.slice(lines.indexOf('successHeaders'), lines.indexOf('errorHeaders'))
    expect(success).not.toContain('X-Error')
    expect(lines).toContain('400: { "X-Error": { component: null; required: false } }')
  })

  it('names the link relations of each Link header, from its pattern or else its example', () => {
    const lines = renderOperationFacts({
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            responses: {
              200: { headers: { Link: { $ref: '#/components/headers/Next' } } },
              default: {
                headers: {
                  Link: {
                    schema: { type: 'string', pattern: '^<[^<>]+>; rel="[a-z-]+"$' },
                    example: '</a>; rel="deprecation", </b>; rel="successor-version"',
                  },
                },
              },
            },
          },
        },
      },
      components: {
        headers: { Next: { schema: { type: 'string', pattern: '^<[^<>]+>; rel="next"$' } } },
      },
    }).join('\n')
    expect(lines).toContain('200: { "Link": { component: "Next"; required: false; rel: "next" } }')
    expect(lines).toContain(
      '"default": { "Link": { component: null; required: false; rel: "deprecation" | "successor-version" } }',
    )
  })
})

describe('renderRequestHeaders', () => {
  it('lists the header parameters of each operation, the path item and $refs included', () => {
    const lines = renderRequestHeaders({
      paths: {
        '/things': {
          parameters: [{ $ref: '#/components/parameters/Trace' }],
          post: {
            operationId: 'makeThing',
            parameters: [
              { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } },
              { name: 'dry', in: 'query', schema: { type: 'boolean' } },
            ],
          },
          get: { operationId: 'listThings' },
        },
      },
      components: { parameters: { Trace: { name: 'X-Trace', in: 'header' } } },
    })
    expect(lines).toContain('  "makeThing": ["X-Trace", "Idempotency-Key"],')
    expect(lines).toContain('  "listThings": ["X-Trace"],')
  })
})

describe('renderRequestMediaTypes', () => {
  it('lists the media types of each request body in spec order, none without a body', () => {
    const lines = renderRequestMediaTypes({
      paths: {
        '/things/{id}': {
          patch: {
            operationId: 'patchThing',
            requestBody: { $ref: '#/components/requestBodies/Patch' },
          },
          get: { operationId: 'getThing' },
        },
      },
      components: {
        requestBodies: {
          Patch: { content: { 'application/merge-patch+json': {}, 'application/json': {} } },
        },
      },
    })
    expect(lines).toContain('  "patchThing": ["application/merge-patch+json", "application/json"],')
    expect(lines).toContain('  "getThing": [],')
  })
})

describe('renderResponseHeaderTypes', () => {
  it('lists every declared response header once, by its first spelling, with its type', () => {
    const lines = renderResponseHeaderTypes({
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            responses: {
              200: { headers: { 'Max-Age': { $ref: '#/components/headers/MaxAge' } } },
              default: {
                headers: {
                  'max-age': { schema: { type: 'integer' } },
                  ETag: { schema: { type: 'string' } },
                },
              },
            },
          },
        },
      },
      components: {
        headers: { MaxAge: { schema: { $ref: '#/components/schemas/Seconds' } } },
        schemas: { Seconds: { type: 'integer', minimum: 0 } },
      },
    })
    expect(lines.filter((line) => line.startsWith('  '))).toEqual([
      '  "Max-Age": "integer",',
      '  "ETag": "string",',
    ])
  })
})

/** The TSDoc release tags on each member of a generated interface, by the member's path. */
function releaseTags(schema: string): string[] {
  const file = ts.createSourceFile('schema.ts', schema, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node, at: string[]) => {
    if (ts.isPropertySignature(node) && node.name && ts.isStringLiteral(node.name))
      at = [...at, node.name.text]
    else if (ts.isPropertySignature(node) && ts.isIdentifier(node.name))
      at = [...at, node.name.text]
    if (ts.isPropertySignature(node)) {
      for (const tag of ts.getJSDocTags(node)) {
        const name = tag.tagName.text
        if (['alpha', 'beta', 'experimental'].includes(name)) found.push(`${at.join(' ')} @${name}`)
      }
    }
    ts.forEachChild(node, (child) => visit(child, at))
  }
  for (const statement of file.statements) {
    if (
      ts.isInterfaceDeclaration(statement) &&
      ['paths', 'operations'].includes(statement.name.text)
    )
      visit(statement, [statement.name.text])
  }
  return found.sort()
}

/** What the spec says should be tagged: each operation below `stable`, in both interfaces. */
function expectedTags(spec: unknown): string[] {
  const tags = { draft: 'experimental', alpha: 'alpha', beta: 'beta' } as Record<string, string>
  return operationsOf(spec as Record<string, unknown>)
    .flatMap(({ path, method, operation }) => {
      const tag = tags[lifecycleOf(operation).stability ?? 'stable']
      return tag === undefined
        ? []
        : [`paths ${path} ${method} @${tag}`, `operations ${String(operation.operationId)} @${tag}`]
    })
    .sort()
}

describe('release tags of the operations below stable', () => {
  it('tags exactly the beta operations of the spec, in paths and in operations', () => {
    const spec = parse(readFileSync(join(root, 'spec/openapi.yaml'), 'utf8'), plainYamlOptions)
    const expected = expectedTags(spec)
    expect(expected.some((tag) => tag.endsWith('@beta'))).toBe(true)
    expect(releaseTags(readFileSync(join(committed, 'schema.ts'), 'utf8'))).toEqual(expected)
  })

  it('follows x-stability-level: an alpha operation is tagged @alpha, a promoted one nothing', async () => {
    const work = mkdtempSync(join(tmpdir(), 'petstore-stability-'))
    const specPath = join(work, 'openapi.yaml')
    const spec = parse(readFileSync(join(root, 'spec/openapi.yaml'), 'utf8'), plainYamlOptions)
    spec.paths['/pets'].post['x-stability-level'] = 'alpha'
    spec.paths['/store/orders'].get['x-stability-level'] = 'stable'
    writeFileSync(specPath, JSON.stringify(spec))
    const schema = await renderGenerated(specPath)
      .then((files) => files.get('schema.ts') ?? '')
      .finally(() => rmSync(work, { recursive: true, force: true }))
    const tags = releaseTags(schema)
    expect(tags).toEqual(expectedTags(spec))
    expect(tags).toContain('paths /pets post @alpha')
    expect(tags).toContain('operations createPet @alpha')
    expect(
      tags.filter((tag) => tag.includes('listOrders') || tag.includes('/store/orders get')),
    ).toEqual([])
    // The description openapi-typescript wrote stays, the tag after it.
    expect(schema).toMatch(
      /@description Adds a pet\.[\s\S]*?\n\s+\* @alpha `x-stability-level: alpha`/,
    )
  })
})
