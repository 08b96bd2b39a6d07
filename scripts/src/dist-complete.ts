/**
 * Whether a package is whole: every file its packed manifest points at (`exports`, or
 * `publishConfig.exports` which pnpm packs in its place, `bin`, `main`, `types`) exists, and so
 * does every file those import by a relative path, followed through the `.js` and `.d.ts`
 * files. `dist/` is built, not committed, so a package packed from a fresh clone
 * would otherwise ship a manifest pointing at nothing. prepack.ts runs it before each pack.
 *
 * @example
 * ```ts
 * missingFiles('packages/server') // [{ file: 'dist/index.d.ts', neededBy: 'exports["."]["types"]' }, …]
 * ```
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

export interface MissingFile {
  /** Relative to the package, e.g. `dist/index.js`. */
  file: string
  /** What points at it: a manifest field (`exports["."]["types"]`) or the file that imports it. */
  neededBy: string
}

export interface Manifest {
  name?: string
  exports?: unknown
  bin?: string | Record<string, string>
  main?: string
  types?: string
  typings?: string
  /** pnpm packs `publishConfig.exports` as the tarball's `exports` when it is given. */
  publishConfig?: { exports?: unknown }
}

/** Every file path the manifest points at, with the field that names it. */
function entryPoints(manifest: Manifest): { file: string; field: string }[] {
  const found: { file: string; field: string }[] = []
  const walk = (value: unknown, field: string) => {
    if (typeof value === 'string') {
      if (value.includes('*')) {
        throw new Error(`${field}: subpath patterns ("${value}") are not checked yet`)
      }
      found.push({ file: value, field })
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value))
        walk(inner, `${field}[${JSON.stringify(key)}]`)
    }
  }
  walk(manifest.publishConfig?.exports ?? manifest.exports, 'exports')
  walk(
    typeof manifest.bin === 'string' ? { [manifest.name ?? '']: manifest.bin } : manifest.bin,
    'bin',
  )
  for (const field of ['main', 'types', 'typings'] as const) walk(manifest[field], field)
  return found
}

/**
 * The file a relative import in `importer` names: a declaration file's `./x.js` is `./x.d.ts`,
 * as TypeScript resolves it.
 */
function importTarget(importer: string, specifier: string): string {
  const target = resolve(dirname(importer), specifier)
  return importer.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target
}

const followsImports = (file: string) => /\.(js|d\.ts)$/.test(file)

/** Relative specifiers `file` imports (static, dynamic, `export … from`), comments ignored. */
function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return importedFiles.map((ref) => ref.fileName).filter((name) => /^\.\.?\//.test(name))
}

/**
 * What the package in `dir` would ship without: files its manifest points at, and files those
 * import by relative path (followed through `.js` and `.d.ts` files), that do not exist.
 */
export function missingFiles(dir: string): MissingFile[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
  const missing: MissingFile[] = []
  const seen = new Set<string>()
  const queue = entryPoints(manifest).map(({ file, field }) => ({
    path: resolve(dir, file),
    neededBy: field,
  }))
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next.path)) continue
    seen.add(next.path)
    if (!existsSync(next.path)) {
      missing.push({ file: relative(dir, next.path), neededBy: next.neededBy })
      continue
    }
    if (!followsImports(next.path)) continue
    const importer = relative(dir, next.path)
    for (const specifier of relativeImports(next.path)) {
      queue.push({ path: importTarget(next.path, specifier), neededBy: importer })
    }
  }
  return missing
}

/** The one line `prepack` prints when files are missing. */
export function refusal(name: string, missing: readonly MissingFile[]): string {
  const [first] = missing
  if (first === undefined) return ''
  const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''
  return `${name}: not packing: ${first.file} is missing (${first.neededBy} needs it)${more}; run \`pnpm build\` at the workspace root first`
}
