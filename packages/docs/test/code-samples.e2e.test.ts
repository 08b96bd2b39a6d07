/**
 * Every code sample a reader sees works: the samples of each operation in every language and the
 * snippets of "Getting started" are read, as visible text, from the docs the service serves at
 * /docs (so they address that service), then run against it: curl in bash, TypeScript
 * type-checked against @petstore/client and run, JavaScript with Node.js, Python with python3.
 * They are read twice: as first shown (the key from the environment) and after the reader typed
 * a key into the console (the key filled in); both must be the generated samples, and both run.
 */
import { execFile } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { withoutServiceVariables } from '@petstore/scripts/service-env'
import { type RunningPetstore, startPetstore } from '@petstore/server'
import type { Browser, Locator, Page } from 'playwright-core'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sampleSubstitutions, substitute } from '../src/browser/sample-text.js'
import {
  apiKeyVariable,
  type SampleLabel,
  sampleBaseUrl,
  sampleLanguages,
  withCodeSamples,
} from '../src/code-samples.js'
import { gettingStarted, snippetsOf } from '../src/getting-started.js'
import { listOperations, type OperationEntry, resolve } from '../src/openapi.js'
import { connectChromium, distDir, outputDir, spec } from './helpers.js'

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL('../', import.meta.url))
const cli = fileURLToPath(new URL('../../server/bin/petstore.js', import.meta.url))
const builtBaseUrl = sampleBaseUrl(spec)

/** Creation first, so that the pet the other samples read (their example id) exists. */
const operations = listOperations(withCodeSamples(spec)).sort(
  (a, b) => Number(b.method === 'post') - Number(a.method === 'post'),
)
const labels = sampleLanguages.map((l) => l.label)
const snippets = snippetsOf(gettingStarted(spec, builtBaseUrl))

function successStatus(entry: OperationEntry): number {
  const status = Object.keys(entry.operation.responses ?? {}).find((code) => /^2\d\d$/.test(code))
  return Number(status)
}

/**
 * What a sample prints: the first text in its success example, or `undefined` without a body. A
 * body without an example fails naming the response, as `pnpm lint`'s example rule does.
 */
function expectedOutput(entry: OperationEntry): string {
  const status = successStatus(entry)
  const name = `${entry.operation.operationId} ${status} (application/json)`
  const response = resolve(spec, entry.operation.responses?.[String(status)] ?? {}) as {
    content?: Record<string, { examples?: Record<string, { value?: unknown }> }>
  }
  const content = response.content?.['application/json']
  if (content === undefined) return 'undefined'
  const first = Object.values(content.examples ?? {})[0]
  const value = first === undefined ? undefined : resolve(spec, first).value
  if (value === undefined) {
    throw new Error(
      `${name}: no example to compare the sample's output with: add one under \`examples\``,
    )
  }
  const text = JSON.stringify(value).match(/"[^"]+":"([^"]+)"/)
  if (!text?.[1]) throw new Error(`${name}: no text in its example`)
  return text[1]
}

function generated(entry: OperationEntry, label: SampleLabel): string {
  const found = entry.operation['x-codeSamples']?.find((s) => s.label === label)
  if (!found) throw new Error(`${entry.operation.operationId} has no ${label} sample`)
  return found.source
}

/** One code block as a reader sees it, and as the build generated it. */
interface Seen {
  name: string
  label: SampleLabel | 'snippet'
  lang: string
  entry?: OperationEntry
  generated: string
  visible: string
  keyed: boolean
}

let petstore: RunningPetstore
let browser: Browser
let samplesDir: string
let env: NodeJS.ProcessEnv
let readerKey: string
const seen: Seen[] = []

const samplePanel = (page: Page, entry: OperationEntry) =>
  page.locator('.panel-request-samples').filter({
    has: page.locator('[data-component-name="Panel/PanelHeader"]', {
      // The header's text runs on into the servers menu: `GET/petsProduction https://…`.
      hasText: new RegExp(
        `^${entry.method.toUpperCase()}\\s*${entry.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!/)`,
      ),
    }),
  })

/** Redoc shows one language at a time, the same in every panel; `panel` switches it. */
async function showLanguage(page: Page, panel: Locator, label: SampleLabel): Promise<void> {
  const menu = panel
    .locator('[data-component-name="Panel/PanelHeader"] button[aria-haspopup="menu"]')
    .last()
  if ((await menu.innerText()).trim() === label) return
  await menu.click()
  // Dispatched rather than clicked at a point: while Redoc still settles the scroll a hash change
  // started, the open menu can sit outside the viewport (seen on a loaded machine).
  await page.getByRole('menuitem', { name: label, exact: true }).dispatchEvent('click')
  await panel
    .locator('[data-component-name="Panel/PanelHeader"] button', {
      hasText: new RegExp(`^${label}$`),
    })
    .waitFor()
}

/** The text a reader sees in `code`, once it is on screen and rendered. */
async function visibleText(code: Locator): Promise<string> {
  await code.scrollIntoViewIfNeeded()
  const handle = await code.elementHandle()
  await code
    .page()
    .waitForFunction((element) => (element as HTMLElement | null)?.innerText.trim() !== '', handle)
  return code.innerText()
}

/** Reads every sample and snippet as shown, `keyed` once the reader typed a key. */
async function readPage(page: Page, keyed: boolean): Promise<void> {
  await page.evaluate(() => {
    location.hash = '#/section/getting-started'
  })
  const introduction = page.locator('#redoc pre')
  for (const [i, snippet] of snippets.entries()) {
    seen.push({
      name: `getting started #${i + 1}`,
      label: 'snippet',
      lang: snippet.lang,
      generated: snippet.source,
      visible: await visibleText(introduction.nth(i)),
      keyed,
    })
  }
  for (const label of labels) {
    for (const [i, entry] of operations.entries()) {
      const tag = (entry.operation as { tags?: string[] }).tags?.[0] ?? ''
      await page.evaluate((hash) => {
        location.hash = hash
      }, `#/${tag}/${entry.operation.operationId?.toLowerCase()}`)
      const panel = samplePanel(page, entry)
      const code = panel.locator('pre', { hasText: /\S/ })
      await code.waitFor()
      if (i === 0) await showLanguage(page, panel, label)
      seen.push({
        name: `${entry.operation.operationId} in ${label}`,
        label,
        lang: label,
        entry,
        generated: generated(entry, label),
        visible: await visibleText(code),
        keyed,
      })
    }
  }
}

beforeAll(async () => {
  samplesDir = await mkdtemp(join(outputDir, 'samples-'))
  const dbPath = join(samplesDir, 'petstore.db')
  petstore = await startPetstore({ docsDir: distDir, dbPath })
  env = withoutServiceVariables(process.env, {
    [apiKeyVariable]: await petstore.issueKey({ plan: 'pro' }),
  })
  browser = await connectChromium()
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
  const page = await context.newPage()
  await page.goto(`${petstore.url}/docs/`)
  await page.locator('html[data-ps-api-base-url]').waitFor({ state: 'attached' })
  await page.locator('img[alt="redocly logo"]').first().waitFor()
  await readPage(page, false)

  // "Get an API key", as an operator: the server's CLI on the running service's database.
  const bin = join(samplesDir, 'bin')
  await mkdir(bin)
  await writeFile(join(bin, 'petstore'), `#!/bin/sh\nexec node ${cli} "$@"\n`)
  await chmod(join(bin, 'petstore'), 0o755)
  const keySnippet = seen.find((s) => s.visible.includes('keys create'))?.visible ?? ''
  const { stdout } = await run('bash', ['-c', `${keySnippet}\nprintf %s "$${apiKeyVariable}"`], {
    env: withoutServiceVariables(process.env, {
      PATH: `${bin}:${process.env.PATH}`,
      PETSTORE_DB: dbPath,
    }),
  })
  readerKey = stdout
  if (!/^psk_\w+$/.test(readerKey)) throw new Error(`the key snippet printed ${readerKey}`)

  await page.locator('.ps-tryit-toggle').click()
  await page.locator('input[name=apiKey]').fill(readerKey)
  await page.locator('.ps-tryit-close').click()
  await page.waitForFunction(
    (key) => document.getElementById('redoc')?.innerText.includes(key),
    readerKey,
  )
  await readPage(page, true)
  await context.close()
})

afterAll(async () => {
  await browser?.close()
  await petstore?.close()
  if (samplesDir && !process.env.KEEP) await rm(samplesDir, { recursive: true, force: true })
})

describe('what the reader sees', () => {
  it('is every generated sample and snippet, for this service and the typed key', () => {
    expect(seen.length).toBe(2 * (snippets.length + labels.length * operations.length))
    for (const item of seen) {
      const substitutions = sampleSubstitutions(
        builtBaseUrl,
        `${petstore.url}/v1`,
        item.keyed ? readerKey : '',
      )
      expect(item.visible.trimEnd(), item.name).toBe(
        substitute(item.generated, substitutions).trimEnd(),
      )
    }
  })
})

/** Runs a shell sample; returns its HTTP status (from `--write-out`) and output. */
async function runCurl(item: Seen): Promise<{ status: number; text: string }> {
  const command = `${item.visible.trimEnd()} --write-out '\\n%{http_code}'`
  const { stdout } = await run('bash', ['-c', command], { env })
  const lines = stdout.trimEnd().split('\n')
  const status = Number(lines.pop())
  return { status, text: lines.join('\n') }
}

const isShell = (item: Seen) =>
  item.label === 'curl' || (item.lang === 'bash' && /^curl /m.test(item.visible))

describe('curl', () => {
  it('every sample and snippet gets its success status', async () => {
    // The operations' samples first: they create the pets that paging needs.
    for (const item of seen.filter(isShell).sort((a, b) => Number(!a.entry) - Number(!b.entry))) {
      const { status, text } = await runCurl(item)
      if (item.entry) {
        expect(status, item.name).toBe(successStatus(item.entry))
        const expected = expectedOutput(item.entry)
        if (expected !== 'undefined') expect(text, item.name).toContain(expected)
      } else {
        expect(status, item.name).toBe(200)
        if (item.visible.includes('-D -'))
          expect(text, item.name).toMatch(/^link: <.+>; rel="next"/im)
      }
    }
  })
})

describe('the install command', () => {
  it('names the client package the TypeScript snippets import', async () => {
    const install = seen.find((s) => s.visible.startsWith('npm i '))
    const { name } = (await import('@petstore/client/package.json', { with: { type: 'json' } }))
      .default as { name: string }
    expect(install?.visible.trim()).toBe(`npm i ${name}`)
  })
})

describe('TypeScript', () => {
  it('type-checks against @petstore/client and runs without error', async () => {
    const items = seen.filter((s) => s.label === 'TypeScript' || s.lang === 'ts')
    const files: [Seen, string][] = []
    for (const [i, item] of items.entries()) {
      const file = join(samplesDir, `sample-${i}.ts`)
      await writeFile(file, item.visible)
      files.push([item, file])
    }
    const program = ts.createProgram(
      files.map(([, file]) => file),
      {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node'],
        skipLibCheck: true,
        noEmit: true,
      },
    )
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(diagnostics).toEqual([])
    for (const [item, file] of files) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
        cwd: packageDir,
        env,
      })
      expect(stdout, item.name).toContain(item.entry ? expectedOutput(item.entry) : '')
    }
  })
})

describe.each([
  ['JavaScript', process.execPath, 'mjs'],
  ['Python', 'python3', 'py'],
] as const)('%s', (label, interpreter, extension) => {
  it('every sample prints its success body', async () => {
    for (const [i, item] of seen.filter((s) => s.label === label).entries()) {
      const file = join(samplesDir, `${label}-${i}.${extension}`)
      await writeFile(file, item.visible)
      const { stdout } = await run(interpreter, [file], { env })
      const entry = item.entry as OperationEntry
      const expected = expectedOutput(entry)
      expect(stdout, item.name).toContain(
        expected === 'undefined' ? String(successStatus(entry)) : expected,
      )
    }
  })
})
