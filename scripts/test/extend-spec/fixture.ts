/**
 * Applies the fixture of fixtures/extend-spec to a copy of the workspace, as an API team adding
 * a resource (store orders: list, create, get) would: the paths, schemas and parameters into the
 * spec (and a minor `info.version` bump), then what the compiler asks for, each an entry in a
 * named table of the code (seams.ts), and the resource's routes as a file of their own.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parse, parseDocument } from 'yaml'
import { plainYamlOptions } from '../../src/spec-lint/plain-yaml.js'
import { addEntry, type SeamEdit } from './seams.js'

const fixtures = new URL('../fixtures/extend-spec/', import.meta.url)
export const fixture = (name: string) => readFileSync(new URL(name, fixtures), 'utf8')

/** The operations the fixture adds, by id, with their collection's path. */
export const added = {
  list: 'listOrders',
  create: 'createOrder',
  get: 'getOrder',
  path: '/store/orders',
} as const

interface SpecFragment {
  tags: unknown[]
  paths: Record<string, unknown>
  components: Record<string, Record<string, unknown>>
}

export function addResourceToSpec(workspace: string): void {
  const file = join(workspace, 'spec/openapi.yaml')
  const spec = parseDocument(readFileSync(file, 'utf8'), plainYamlOptions)
  const fragment = parse(fixture('orders.yaml'), plainYamlOptions) as SpecFragment
  // A value met twice would become an anchor and an alias, which the spec lint refuses.
  const node = (value: unknown) => spec.createNode(value, { aliasDuplicateObjects: false })
  for (const tag of fragment.tags) spec.addIn(['tags'], node(tag))
  for (const [path, item] of Object.entries(fragment.paths)) spec.setIn(['paths', path], node(item))
  for (const [section, entries] of Object.entries(fragment.components)) {
    for (const [name, value] of Object.entries(entries)) {
      spec.setIn(['components', section, name], node(value))
    }
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
    entry: `orders: defineResource<'listOrders', components['schemas']['Order']>({
    table: 'orders',
    schema: 'Order',
    filters: { status: { field: 'status', match: 'equals' } },
  })`,
    imports: [`import type { components } from '@petstore/types'`],
  },
  {
    file: `${server}/store/resources.ts`,
    table: 'listedResources',
    entry: 'listOrders: resources.orders',
  },
  {
    file: `${server}/store/migrations.ts`,
    table: 'migrations',
    entry: `{ name: '005-orders', sql: resourceTable('orders', ['status']) }`,
  },
  {
    file: `${server}/routes/index.ts`,
    table: 'resourceRoutes',
    entry: '...createOrderRoutes(deps)',
    imports: [`import { createOrderRoutes } from './orders/handlers.js'`],
  },
]

/** The file the resource's routes are written to, whole. */
const routesFile = `${server}/routes/orders/handlers.ts`

/** The files an API team edits or adds by hand, the spec and the changeset aside. */
export const handEditedFiles = [...new Set([...seamEdits.map(({ file }) => file), routesFile])]

export function addResourceCode(workspace: string): void {
  for (const edit of seamEdits) addEntry(workspace, edit)
  const routes = join(workspace, routesFile)
  mkdirSync(dirname(routes), { recursive: true })
  writeFileSync(routes, fixture('orders-handlers.ts.fragment'))
}
