/**
 * The folders the dev loop reads and writes. Everything is relative to the checkout this file
 * lives in, so a copy of the workspace (the dev loop's test runs in one) never touches another.
 */
import { join } from 'node:path'
import { workspaceRoot } from '../workspace.js'

export interface Workspace {
  root: string
  specDir: string
  specPath: string
  /** Written by the generator: never watched, or each regeneration would trigger the next. */
  generatedDir: string
  typesDir: string
  serverDir: string
  clientDir: string
  docsDir: string
}

export function workspaceAt(root: string): Workspace {
  return {
    root,
    specDir: join(root, 'spec'),
    specPath: join(root, 'spec/openapi.yaml'),
    generatedDir: join(root, 'packages/types/src/generated'),
    typesDir: join(root, 'packages/types'),
    serverDir: join(root, 'packages/server'),
    clientDir: join(root, 'packages/client'),
    docsDir: join(root, 'packages/docs'),
  }
}

export const thisWorkspace: Workspace = workspaceAt(workspaceRoot)
