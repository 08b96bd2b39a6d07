/**
 * `pnpm --filter @petstore/docs build`: renders the bundled spec into dist/, with the changelog of
 * the repository's release history (`spec/released/`). `PETSTORE_DOCS_API_URL` names the server
 * the samples and try-it address on a static host (default: the spec's first).
 */
import { fileURLToPath } from 'node:url'
import { openapiDocument } from '@petstore/types/spec'
import { buildSite } from '../src/build.js'
import { readChangelog } from '../src/changelog.js'
import { sampleBaseUrl } from '../src/code-samples.js'
import type { OpenApiDocument } from '../src/openapi.js'

const outDir = fileURLToPath(new URL('../dist/', import.meta.url))
const root = fileURLToPath(new URL('../../../', import.meta.url))
const spec = openapiDocument as unknown as OpenApiDocument
await buildSite(spec, outDir, {
  apiBaseUrl: sampleBaseUrl(spec, process.env),
  changelog: readChangelog(root),
})
console.log(`docs written to ${outDir}`)
