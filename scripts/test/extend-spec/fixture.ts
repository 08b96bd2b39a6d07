/**
 * Applies the fixture of fixtures/extend-spec to a copy of the workspace, as an API team adding
 * `updatePet` would edit it: the operation into the spec (and a minor `info.version` bump), then
 * the handler and the store method the compiler asks for. Code goes in at anchors; an anchor that
 * moved fails here, naming the file to update.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse, parseDocument } from 'yaml'

const fixtures = new URL('../fixtures/extend-spec/', import.meta.url)
const fixture = (name: string) => readFileSync(new URL(name, fixtures), 'utf8')

/** The path and method the fixture adds, and its operation id. */
export const added = { path: '/pets/{petId}', method: 'patch', operationId: 'updatePet' } as const

export function addOperationToSpec(workspace: string): void {
  const file = join(workspace, 'spec/openapi.yaml')
  const spec = parseDocument(readFileSync(file, 'utf8'))
  const { operation, schemas } = parse(fixture('update-pet.yaml')) as {
    operation: unknown
    schemas: Record<string, unknown>
  }
  spec.setIn(['paths', added.path, added.method], spec.createNode(operation))
  for (const [name, schema] of Object.entries(schemas)) {
    spec.setIn(['components', 'schemas', name], spec.createNode(schema))
  }
  const [major, minor] = String(spec.getIn(['info', 'version']))
    .split('.')
    .map(Number)
  spec.setIn(['info', 'version'], `${major}.${(minor ?? 0) + 1}.0`)
  writeFileSync(file, spec.toString({ lineWidth: 0 }))
}

/** Where each piece of code goes: after the first line that is exactly `anchor`. */
const codeEdits = [
  {
    file: 'packages/server/src/routes/pets/handlers.ts',
    anchor: '  return {',
    code: 'handler.ts.fragment',
  },
  {
    file: 'packages/server/src/store/store.ts',
    anchor: 'export interface PetStore {',
    code: 'store.ts.fragment',
  },
  {
    file: 'packages/server/src/store/sqlite/pets.ts',
    anchor: '  return {',
    code: 'sqlite-pets.ts.fragment',
  },
  {
    file: 'packages/server/src/store/postgres/pets.ts',
    anchor: '  return {',
    code: 'postgres-pets.ts.fragment',
  },
] as const

/** The files an API team edits by hand, the spec and the changeset aside. */
export const handEditedFiles = codeEdits.map(({ file }) => file)

export function addHandlerAndStoreMethod(workspace: string): void {
  for (const { file, anchor, code } of codeEdits) {
    const path = join(workspace, file)
    const lines = readFileSync(path, 'utf8').split('\n')
    const at = lines.indexOf(anchor)
    if (at === -1) {
      throw new Error(
        `extend-spec fixture: no line \`${anchor}\` in ${file}; update scripts/test/extend-spec/fixture.ts (and the README's "Adding an operation") to match the code`,
      )
    }
    lines.splice(at + 1, 0, fixture(code).trimEnd())
    writeFileSync(path, lines.join('\n'))
  }
}
