/**
 * What the docs add to Redoc's page, all inline: a Content-Security-Policy that lets the page
 * load nothing from another host, the address fixes of `address.ts`, and the try-it console
 * (script, style and the data it reads).
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { addressScript } from './address.js'
import { type TryItData, tryItDataId } from './browser/types.js'
import { scriptJson } from './html.js'

const browserDir = new URL('./browser/', import.meta.url)

/**
 * Everything the page loads must come from the page itself (inline, `data:` or `blob:`) or its
 * own origin. `connect-src` stays open: the try-it console may target any server the reader
 * picks. Redoc's inline bundle needs `'unsafe-inline'`.
 * @see https://www.w3.org/TR/CSP3/
 */
export const contentSecurityPolicy = [
  "default-src 'self' data: blob:",
  "script-src 'self' 'unsafe-inline' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  'connect-src *',
  "object-src 'none'",
  "base-uri 'self'",
].join('; ')

async function bundleTryIt(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('try-it.ts', browserDir))],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    write: false,
    legalComments: 'none',
  })
  const [output] = result.outputFiles
  if (!output) throw new Error('esbuild produced no try-it bundle')
  return output.text.replace(/<\/(script)/gi, '<\\/$1')
}

export interface Enhancements {
  /** First in `<head>`: the policy must precede what it governs. */
  headStart: string
  head: string
  body: string
}

/** The snippets to add to `<head>` and to the end of `<body>`. */
export async function enhancements(
  data: TryItData,
  anchors: Readonly<Record<string, string>>,
): Promise<Enhancements> {
  const css = (
    await Promise.all(
      ['page.css', 'try-it.css'].map((name) => readFile(new URL(name, browserDir), 'utf8')),
    )
  ).join('\n')
  const headStart = [
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">`,
    `<script>${addressScript(anchors)}</script>`,
  ].join('\n')
  const head = ['<meta name="color-scheme" content="light dark">', `<style>${css}</style>`].join(
    '\n',
  )
  const body = [
    `<script type="application/json" id="${tryItDataId}">${scriptJson(data)}</script>`,
    `<script>${await bundleTryIt()}</script>`,
  ].join('\n')
  return { headStart, head, body }
}
