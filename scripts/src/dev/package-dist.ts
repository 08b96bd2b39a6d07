/**
 * Keeping a package's `dist/` in step with its `src/` while the loop runs. The service and the
 * docs build only execute JavaScript, so an edit refreshes that with esbuild (one file at a
 * time, milliseconds; correct because the sources are written for `isolatedModules` and
 * `verbatimModuleSyntax`) and leaves the declarations, which only editors and type checks read,
 * to a full `tsc` build once the loop is idle (12 s for the server here, versus 0.1 s). That
 * build rewrites the JavaScript as `pnpm build` would.
 */
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { transform } from 'esbuild'
import { type RunResult, runNode } from './run.js'

const require = createRequire(import.meta.url)

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return 0
  }
}

/**
 * Writes `dist/**.js` for each `src/**.ts` newer than it, and copies JSON that differs. Returns
 * the source files it refreshed.
 */
export async function refreshJavaScript(packageDir: string): Promise<string[]> {
  const src = join(packageDir, 'src')
  const refreshed: string[] = []
  for (const file of filesUnder(src)) {
    const target = join(packageDir, 'dist', relative(src, file))
    if (file.endsWith('.json')) {
      const contents = readFileSync(file)
      if (mtimeOf(target) > 0 && readFileSync(target).equals(contents)) continue
      mkdirSync(dirname(target), { recursive: true })
      copyFileSync(file, target)
      refreshed.push(file)
    } else if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
      const js = target.replace(/\.ts$/, '.js')
      if (mtimeOf(js) >= mtimeOf(file)) continue
      const { code } = await transform(readFileSync(file, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        // The engines floor: an older target would drop the JSON import attribute.
        target: 'node20.19',
        tsconfigRaw: {
          compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true },
        },
      })
      mkdirSync(dirname(js), { recursive: true })
      writeFileSync(js, code)
      refreshed.push(file)
    }
  }
  return refreshed
}

/** Whether a source is newer than the last `tsc` build (which rewrites `dist/index.d.ts`). */
export function declarationsStale(packageDir: string): boolean {
  const built = mtimeOf(join(packageDir, 'dist/index.d.ts'))
  return filesUnder(join(packageDir, 'src')).some((file) => mtimeOf(file) > built)
}

/** The package's own build (`tsc -p tsconfig.build.json`). */
export function buildWithTsc(packageDir: string, signal: AbortSignal): Promise<RunResult> {
  const tsc = require.resolve('typescript/bin/tsc')
  return runNode([tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, signal })
}
