/**
 * Part of `build`: copies the docs site that @petstore/docs built into `dist/docs`, so the
 * published package serves `/docs` (the docs package is private). Turbo builds the docs first
 * (turbo.json); the docs package only devDepends on this one, so the order has no cycle.
 */
import { cpSync, existsSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const site = fileURLToPath(new URL('../../docs/dist/', import.meta.url))
const target = fileURLToPath(new URL('../dist/docs/', import.meta.url))

if (!existsSync(`${site}index.html`)) {
  console.error(
    `ship-docs: ${site}index.html is missing: build the docs first (pnpm --filter @petstore/docs build, or pnpm build)`,
  )
  process.exit(1)
}
rmSync(target, { recursive: true, force: true })
cpSync(site, target, { recursive: true })
