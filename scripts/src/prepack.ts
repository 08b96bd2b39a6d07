/**
 * Each published package's `prepack` (`"prepack": "tsx ../../scripts/src/prepack.ts"`, run in
 * the package's directory): refuses to pack, and so `pnpm pack`, `pnpm publish`,
 * `pnpm -r publish` and `changeset publish` refuse to publish, when the package is not whole
 * (dist-complete.ts). It prints one line naming the package, the first missing file and what
 * needs it, and exits 1.
 *
 * Why a check and not a build. A `prepack` that builds would run turbo inside
 * `changeset publish`, and inside the `pnpm pack` of scripts/test/packages.test.ts, itself a
 * turbo task running beside other packages' tests that read these `dist/` folders: a nested
 * build would rewrite them mid-run, and with a cold cache build the docs inside a lifecycle hook.
 * A check only reads, and what gets published is the build `pnpm release` has just tested (it
 * runs `turbo run build lint typecheck test` before `changeset publish`).
 *
 * Why whole and not fresh. Turbo's build is keyed by the content of its inputs, and that is what
 * keeps `dist/` current; file times are not: a checkout, a stash or a cache restore moves them
 * without changing a byte, and a cache hit may leave an older `dist/` in place, so a "sources
 * newer than dist" rule would refuse releases that `pnpm build` could not un-refuse.
 */
import { readFileSync } from 'node:fs'
import { type Manifest, missingFiles, refusal } from './dist-complete.js'

const dir = process.cwd()
const { name = dir } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as Manifest
const missing = missingFiles(dir)
if (missing.length > 0) {
  console.error(refusal(name, missing))
  process.exit(1)
}
