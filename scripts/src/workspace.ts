/**
 * The workspace's packages as the release sees them: which are published (not `private`), where
 * they live, and the names pnpm gives them in an audit report.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url))

export interface PackageManifest {
  name: string
  version: string
  private?: boolean
  [field: string]: unknown
}

export interface WorkspacePackage {
  /** The directory, absolute. */
  dir: string
  /** The lockfile's importer id, e.g. `packages/server`. */
  importerId: string
  manifest: PackageManifest
}

/**
 * Every package under `packages/` that is published (not `private`), by name.
 *
 * @example
 * ```ts
 * publishedPackages().map((pkg) => pkg.manifest.name) // ['@petstore/client', …]
 * ```
 */
export function publishedPackages(root = workspaceRoot): WorkspacePackage[] {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const importerId = `packages/${entry.name}`
      const dir = join(root, importerId)
      const manifest = JSON.parse(
        readFileSync(join(dir, 'package.json'), 'utf8'),
      ) as PackageManifest
      return { dir, importerId, manifest }
    })
    .filter((pkg) => pkg.manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name))
}
