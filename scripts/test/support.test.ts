/**
 * The support table (src/support/table.ts): `spec/SUPPORT.md` is what its rows render to, the
 * canonical spec uses nothing outside it, and a spec that does is refused by `pnpm generate` and
 * `pnpm lint`, naming the construct, where it is and the row. Each row with a check gets an edit
 * of the spec it must refuse: a row added without one fails here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { renderGenerated } from '../src/generate-types.js'
import { lintSpec, SPECTRAL_RULESET } from '../src/spec-lint/lint.js'
import { plainYamlOptions } from '../src/spec-lint/plain-yaml.js'
import { renderSupportTable } from '../src/support/render.js'
import { describeUnsupported, pointer, supportTable, unsupported } from '../src/support/table.js'
import { workspaceRoot } from '../src/workspace.js'

// biome-ignore lint/suspicious/noExplicitAny: the edits below reach deep into a parsed spec
type Node = Record<string, any>

const specPath = join(workspaceRoot, 'spec/openapi.yaml')
const canonical = () => parse(readFileSync(specPath, 'utf8'), plainYamlOptions) as Node
const work = mkdtempSync(join(tmpdir(), 'petstore-support-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The first operation of the spec with a request body, and one with a query parameter. */
const createPet = (doc: Node) => doc.paths['/pets'].post
const listPets = (doc: Node) => doc.paths['/pets'].get

/** For each row with a check: an edit it must refuse, and the construct it must name. */
const violations: Record<string, { edit: (doc: Node) => void; names: string }> = {
  'request-media-type': {
    edit: (doc) => {
      const { content } = createPet(doc).requestBody
      content['multipart/form-data'] = content['application/json']
    },
    names: 'request body media type multipart/form-data',
  },
  'response-media-type': {
    edit: (doc) => {
      doc.paths['/pets'].get.responses['200'].content['text/csv'] = { schema: { type: 'string' } }
    },
    names: 'response media type text/csv',
  },
  'parameter-location': {
    edit: (doc) => {
      listPets(doc).parameters.push({ name: 'session', in: 'cookie', schema: { type: 'string' } })
    },
    names: 'cookie parameter "session"',
  },
  'parameter-type': {
    edit: (doc) => {
      listPets(doc).parameters.push({
        name: 'near',
        in: 'query',
        schema: { type: 'object', properties: { lat: { type: 'number' } } },
      })
    },
    names: 'query parameter "near" of type "object"',
  },
  'parameter-style': {
    edit: (doc) => {
      listPets(doc).parameters.push({
        name: 'tag',
        in: 'query',
        explode: false,
        schema: { type: 'array', items: { type: 'string', maxLength: 10 }, maxItems: 3 },
      })
    },
    names: 'query parameter "tag" with explode: false',
  },
  'schema-keyword': {
    edit: (doc) => {
      doc.components.schemas.NewPet.propertyNames = { maxLength: 20 }
    },
    names: 'schema keyword propertyNames',
  },
  'schema-format': {
    edit: (doc) => {
      doc.components.schemas.PetName.format = 'email'
    },
    names: 'format email',
  },
  'response-header': {
    edit: (doc) => {
      listPets(doc).responses['200'].headers['X-Total'] = {
        schema: { type: 'array', items: { type: 'integer' } },
      }
    },
    names: 'response header X-Total of type "array"',
  },
  'response-header-field': {
    edit: (doc) => {
      listPets(doc).responses['200'].headers['Request-Id'] = { schema: { type: 'string' } }
    },
    names: 'response header Request-Id (its field requestId is taken)',
  },
  security: {
    edit: (doc) => {
      doc.components.securitySchemes.session = { type: 'apiKey', in: 'cookie', name: 'sid' }
    },
    names: 'security scheme session (apiKey)',
  },
  operation: {
    edit: (doc) => {
      doc.webhooks = { petAdopted: { post: { responses: { '200': { description: 'ok' } } } } }
    },
    names: 'webhooks',
  },
}

describe('the support table', () => {
  it('is what spec/SUPPORT.md shows (run `pnpm generate` to render it)', () => {
    expect(readFileSync(join(workspaceRoot, 'spec/SUPPORT.md'), 'utf8')).toBe(renderSupportTable())
  })

  it('finds nothing unsupported in the canonical spec', () => {
    expect(unsupported(canonical()).map(describeUnsupported)).toEqual([])
  })

  it('has a refused edit for every row that checks the spec', () => {
    const withCheck = supportTable.filter((row) => row.check !== undefined).map((row) => row.id)
    expect(Object.keys(violations).sort()).toEqual(withCheck.sort())
  })

  for (const [row, violation] of Object.entries(violations)) {
    it(`refuses ${violation.names}, naming row "${row}"`, () => {
      const doc = canonical()
      violation.edit(doc)
      const found = unsupported(doc)
      expect(found.map((f) => [f.row, f.construct])).toEqual([[row, violation.names]])
      const [finding] = found
      expect(finding?.where.startsWith('#/')).toBe(true)
      expect(describeUnsupported(finding as (typeof found)[number])).toBe(
        `${finding?.where}: ${violation.names} is not supported (support table row "${row}", spec/SUPPORT.md)`,
      )
    })
  }

  it('refuses an operation whose JSON media types have different schemas', () => {
    const doc = canonical()
    createPet(doc).requestBody.content['application/merge-patch+json'] = {
      schema: { $ref: '#/components/schemas/PetPatch' },
    }
    expect(unsupported(doc).map((f) => [f.row, f.construct])).toEqual([
      ['request-media-type', 'request body media types with different schemas'],
    ])
    createPet(doc).requestBody.content['application/merge-patch+json'] =
      createPet(doc).requestBody.content['application/json']
    expect(unsupported(doc)).toEqual([])
  })

  it("refuses a header name the client's meta cannot name, or one read as two types", () => {
    const doc = canonical()
    const headers = listPets(doc).responses['200'].headers
    headers['X-Total_Count'] = { schema: { type: 'integer' } }
    headers.Constructor = { schema: { type: 'string' } }
    createPet(doc).responses['201'].headers.Allow = { schema: { type: 'integer' } }
    expect(
      unsupported(doc)
        .filter((finding) => finding.row === 'response-header-field')
        .map((finding) => [finding.construct, finding.where]),
    ).toEqual([
      [
        'response header name X-Total_Count',
        '#/paths/~1pets/get/responses/200/headers/X-Total_Count',
      ],
      [
        'response header Constructor (its field constructor is taken)',
        '#/paths/~1pets/get/responses/200/headers/Constructor',
      ],
      // Named where it disagrees with the first declaration of the name (createPet's here).
      [
        'response header Allow of type "string" where another is "integer"',
        '#/paths/~1openapi.json/options/responses/204/headers/Allow',
      ],
    ])
  })

  it('stops `pnpm generate` with every finding, each by name, place and row', async () => {
    const doc = canonical()
    violations['parameter-location']?.edit(doc)
    violations['schema-format']?.edit(doc)
    const file = join(work, 'openapi.yaml')
    writeFileSync(file, stringify(doc))
    await expect(renderGenerated(file)).rejects.toThrow(
      [
        'the spec uses what the generator and the service do not support:',
        `  ${pointer(['paths', '/pets', 'get'])}: cookie parameter "session" is not supported (support table row "parameter-location", spec/SUPPORT.md)`,
        `  ${pointer(['components', 'schemas', 'PetName', 'format'])}: format email is not supported (support table row "schema-format", spec/SUPPORT.md)`,
      ].join('\n'),
    )
  })

  it('fails `pnpm lint` with the same finding', async () => {
    const doc = canonical()
    violations['parameter-location']?.edit(doc)
    const file = join(work, 'openapi.yaml')
    writeFileSync(file, stringify(doc))
    const findings = await lintSpec({
      spec: file,
      ruleset: join(workspaceRoot, SPECTRAL_RULESET),
    })
    expect(findings.filter((f) => f.code === 'petstore-support')).toEqual([
      {
        code: 'petstore-support',
        severity: 'error',
        path: ['paths', '/pets', 'get'],
        message: `${pointer(['paths', '/pets', 'get'])}: cookie parameter "session" is not supported (support table row "parameter-location", spec/SUPPORT.md)`,
      },
    ])
  })
})
