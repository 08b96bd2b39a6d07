/**
 * Applies the fixture of fixtures/extend-spec to a copy of the workspace, as an API team would
 * make a week's edits: a resource of its own (shelters: list with a filter, create, read, a JSON
 * merge patch, delete) and, on pets, a nested `medical` record with a boolean filter on it. The
 * spec first (and a minor `info.version` bump), then what the compiler asks for, each an entry in
 * a named table of the code (seams.ts), and the resource's routes as a file of their own.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parse, parseDocument } from 'yaml'
import { plainYamlOptions } from '../../src/spec-lint/plain-yaml.js'
import { addEntry, type SeamEdit } from './seams.js'

const fixtures = new URL('../fixtures/extend-spec/', import.meta.url)
export const fixture = (name: string) => readFileSync(new URL(name, fixtures), 'utf8')

/** The operations the fixture adds, by id, with their paths. */
export const added = {
  list: 'listShelters',
  create: 'createShelter',
  get: 'getShelter',
  update: 'updateShelter',
  remove: 'deleteShelter',
  path: '/shelters',
} as const

/** The filter the fixture adds to `listPets`, and the nested property it reads. */
export const nestedFilter = { parameter: 'vaccinated', field: 'medical.vaccinated' } as const

/** A change of what the spec has: a value set at `at`, or appended to the list there. */
type SpecEdit = { at: string[] } & ({ set: unknown } | { append: unknown })

interface SpecFragment {
  tags: unknown[]
  edits: SpecEdit[]
  paths: Record<string, unknown>
  components: Record<string, Record<string, unknown>>
}

export function extendSpec(workspace: string): void {
  const file = join(workspace, 'spec/openapi.yaml')
  const spec = parseDocument(readFileSync(file, 'utf8'), plainYamlOptions)
  const fragment = parse(fixture('shelters.yaml'), plainYamlOptions) as SpecFragment
  // A value met twice would become an anchor and an alias, which the spec lint refuses.
  const node = (value: unknown) => spec.createNode(value, { aliasDuplicateObjects: false })
  for (const tag of fragment.tags) spec.addIn(['tags'], node(tag))
  for (const [path, item] of Object.entries(fragment.paths)) spec.setIn(['paths', path], node(item))
  for (const [section, entries] of Object.entries(fragment.components)) {
    for (const [name, value] of Object.entries(entries)) {
      spec.setIn(['components', section, name], node(value))
    }
  }
  for (const edit of fragment.edits) {
    if (!spec.hasIn(edit.at.slice(0, -1))) {
      throw new Error(`extend-spec fixture: spec/openapi.yaml has nothing at ${edit.at.join('/')}`)
    }
    if ('set' in edit) spec.setIn(edit.at, node(edit.set))
    else spec.addIn(edit.at, node(edit.append))
  }
  const [major, minor] = String(spec.getIn(['info', 'version']))
    .split('.')
    .map(Number)
  spec.setIn(['info', 'version'], `${major}.${(minor ?? 0) + 1}.0`)
  writeFileSync(file, spec.toString({ lineWidth: 0 }))
}

const server = 'packages/server/src'

/** What the compiler leads a team to, each an entry in a table the code names. */
const seamEdits: SeamEdit[] = [
  {
    file: `${server}/store/resources.ts`,
    table: 'resources',
    entry: `shelters: defineResource<'listShelters', components['schemas']['Shelter']>({
    list: 'listShelters',
    table: 'shelters',
    schema: 'Shelter',
    filters: { city: { field: 'city', match: 'equals' } },
  })`,
    imports: [`import type { components } from '@petstore/types'`],
  },
  {
    file: `${server}/store/resources.ts`,
    table: 'resources.pets.filters',
    entry: `${nestedFilter.parameter}: { field: '${nestedFilter.field}', match: 'equals' }`,
  },
  {
    file: `${server}/http/response-headers.ts`,
    table: 'headerWriters',
    entry: `ShelterLocation: 'handler'`,
  },
  {
    file: `${server}/store/migrations.ts`,
    table: 'migrations',
    entry: `{ name: '006-shelters', sql: resourceTable('shelters', { filtered: ['city'] }) }`,
  },
  {
    file: `${server}/store/migrations.ts`,
    table: 'migrations',
    entry: `{ name: '007-pet-vaccinated', sql: filterIndex('pets', '${nestedFilter.field}') }`,
  },
  {
    file: `${server}/routes/index.ts`,
    table: 'resourceRoutes',
    entry: '...createShelterRoutes(deps)',
    imports: [`import { createShelterRoutes } from './shelters/handlers.js'`],
  },
]

/** The file the resource's routes are written to, whole. */
const routesFile = `${server}/routes/shelters/handlers.ts`

/** The files an API team edits or adds by hand, the spec and the changeset aside. */
export const handEditedFiles = [...new Set([...seamEdits.map(({ file }) => file), routesFile])]

export function addResourceCode(workspace: string): void {
  for (const edit of seamEdits) addEntry(workspace, edit)
  const routes = join(workspace, routesFile)
  mkdirSync(dirname(routes), { recursive: true })
  writeFileSync(routes, fixture('shelters-handlers.ts.fragment'))
}
