/** `pnpm --filter @petstore/docs build`: renders the bundled spec into dist/. */
import { fileURLToPath } from 'node:url'
import { openapiDocument } from '@petstore/types/spec'
import { buildSite } from '../src/build.js'
import type { OpenApiDocument } from '../src/openapi.js'

const outDir = fileURLToPath(new URL('../dist/', import.meta.url))
await buildSite(openapiDocument as unknown as OpenApiDocument, outDir)
console.log(`docs written to ${outDir}`)
