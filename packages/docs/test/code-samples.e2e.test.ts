/**
 * Every code sample a reader sees works: the samples of each operation in every language and the
 * snippets of the guides ("Getting started", "Adopting a pet") are read, as visible text, from the
 * docs the service serves at /docs (so they address that service), then run against it: curl in
 * bash, TypeScript type-checked against @petstore/client and run, JavaScript with Node.js, Python
 * with python3. They are read twice: as first shown (the key from the environment) and after the
 * reader typed a key into the console (the key filled in); both must be the generated samples,
 * and both run (the second with a key literal of the test's own, on a plan whose limits the runs
 * fit in).
 *
 * Each operation's sample runs with resources made for it (`sample-fixtures.ts`): the ids it
 * names are those of a pet or an order created just before, so the samples pass in any order
 * (they run shuffled; `SAMPLES_SEED` repeats an order) and `deletePet` deletes a pet of its own.
 * The guides' snippets run as a reader runs them: "Adopting a pet" in order, in one shell.
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
  codeSamples,
  type SampleLabel,
  type SampleRequest,
  sampleBaseUrl,
  sampleLanguages,
  withCodeSamples,
} from '../src/code-samples.js'
import { snippetsOf } from '../src/guide-template.js'
import { guides } from '../src/guides.js'
import { listOperations, type OperationEntry, resolve } from '../src/openapi.js'
import { connectChromium, distDir, outputDir, spec } from './helpers.js'
import { type Api, sampleFixtures } from './sample-fixtures.js'

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL('../', import.meta.url))
const cli = fileURLToPath(new URL('../../server/bin/petstore.js', import.meta.url))
const builtBaseUrl = sampleBaseUrl(spec)

const operations = listOperations(withCodeSamples(spec))
const labels = sampleLanguages.map((l) => l.label)
const snippets = guides(spec, builtBaseUrl).flatMap(({ title, markdown }) =>
  snippetsOf(markdown).map((snippet, i) => ({
    ...snippet,
    name: `${title} #${i + 1}`,
    guide: title,
  })),
)
const fixtures = sampleFixtures(spec)

/** The order the samples run in: shuffled, the same for one `SAMPLES_SEED`. */
const seed = Number(process.env.SAMPLES_SEED ?? Math.floor(Math.random() * 2 ** 31))
function shuffled<T>(items: readonly T[]): T[] {
  let state = seed
  const random = () => {
    // mulberry32: a small seeded generator, enough to vary an order.
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
  }
  return copy
}

function successStatus(entry: OperationEntry): number {
  const status = Object.keys(entry.operation.responses ?? {}).find((code) => /^2\d\d$/.test(code))
  return Number(status)
}

/**
 * What a sample prints: the first text in its success example, or `undefined` without a body. A
 * body without an example fails naming the response, as `pnpm lint`'s example rule does.
 */
function expectedOutput(entry: OperationEntry): string | undefined {
  const status = successStatus(entry)
  const name = `${entry.operation.operationId} ${status} (application/json)`
  const response = resolve(spec, entry.operation.responses?.[String(status)] ?? {}) as {
    content?: Record<string, { examples?: Record<string, { value?: unknown }> }>
  }
  const content = response.content?.['application/json']
  if (content === undefined) return undefined
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
  /** The title of the guide a snippet is in. */
  guide?: string
  generated: string
  visible: string
  keyed: boolean
}

let petstore: RunningPetstore
let browser: Browser
let samplesDir: string
let env: NodeJS.ProcessEnv
let envKey: string
let readerKey: string
/** The key literal the keyed runs carry instead of the reader's, whose Free plan they outrun. */
let runKey: string
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
  // The guides open the introduction: their code blocks are its first.
  const introduction = page.locator('#redoc pre')
  for (const [i, snippet] of snippets.entries()) {
    seen.push({
      name: snippet.name,
      label: 'snippet',
      lang: snippet.lang,
      guide: snippet.guide,
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
  envKey = await petstore.issueKey({ plan: 'business' })
  runKey = await petstore.issueKey({ plan: 'business' })
  env = withoutServiceVariables(process.env, { [apiKeyVariable]: envKey })
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
  // Two readings of every sample and snippet, each scrolled to as a reader would: about a minute
  // on a loaded 2-core machine, beyond the package's default hook timeout.
}, 240_000)

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

/** The service's API, as the page addresses it. */
const serviceBase = () => `${petstore.url}/v1`

/** The key `item` runs with, and where its fixtures are made. */
function apiOf(item: Seen): Api {
  return { baseUrl: serviceBase(), apiKey: item.keyed ? runKey : envKey }
}

/**
 * What runs for `item`: the text the reader saw (asserted above to be the generated one) for
 * `request`, the ids of its fixtures, and with `runKey` where the reader's key was filled in.
 */
function runnable(item: Seen, request?: SampleRequest): string {
  const source =
    item.entry === undefined
      ? item.generated
      : (codeSamples(spec, item.entry, builtBaseUrl, request).find((s) => s.label === item.label)
          ?.source ?? '')
  return substitute(
    source,
    sampleSubstitutions(builtBaseUrl, serviceBase(), item.keyed ? runKey : ''),
  ).trimEnd()
}

/** The operations' samples in `label`, shuffled, each with the request of its own fixtures. */
async function* preparedSamples(label: SampleLabel): AsyncGenerator<[Seen, string]> {
  for (const item of shuffled(seen.filter((s) => s.label === label))) {
    const entry = item.entry as OperationEntry
    yield [item, runnable(item, await fixtures.prepare(apiOf(item), entry))]
  }
}

/** The name of a run in messages: which sample, and how to repeat the order. */
const runName = (item: Seen) =>
  `${item.name}${item.keyed ? ' (key filled in)' : ''}, SAMPLES_SEED=${seed}`

/** Runs a shell command; returns its HTTP status (from `--write-out`) and output. */
async function runCurl(source: string): Promise<{ status: number; text: string }> {
  const command = `${source} --write-out '\\n%{http_code}'`
  const { stdout } = await run('bash', ['-c', command], { env })
  const lines = stdout.trimEnd().split('\n')
  const status = Number(lines.pop())
  return { status, text: lines.join('\n') }
}

describe('curl', () => {
  it('every operation’s sample gets its success status, in any order', async () => {
    for await (const [item, source] of preparedSamples('curl')) {
      const entry = item.entry as OperationEntry
      const { status, text } = await runCurl(source)
      expect(status, runName(item)).toBe(successStatus(entry))
      const expected = expectedOutput(entry)
      // An answer without a body is shown with its status line (`curl -i`).
      if (expected === undefined) expect(text, runName(item)).toMatch(/^HTTP\/[\d.]+ \d{3}/)
      else expect(text, runName(item)).toContain(expected)
    }
  })

  it('every Getting started command gets 200, and the paging one a next link', async () => {
    const commands = seen.filter(
      (s) => s.guide === 'Getting started' && s.lang === 'bash' && /^curl /.test(s.visible),
    )
    expect(commands.length).toBeGreaterThan(0)
    for (const item of commands) {
      const { status, text } = await runCurl(runnable(item))
      expect(status, item.name).toBe(200)
      if (item.visible.includes('-D -'))
        expect(text, item.name).toMatch(/^link: <.+>; rel="next"/im)
    }
  })
})

describe('Adopting a pet', () => {
  const shellOf = (keyed: boolean) =>
    seen
      .filter((s) => s.guide === 'Adopting a pet' && s.lang === 'bash' && s.keyed === keyed)
      .map((item) => runnable(item))
      .join('\n')

  it.each([false, true])(
    'its shell snippets, in order in one shell, adopt, cancel and refuse a stale If-Match (key filled in: %s)',
    async (keyed) => {
      const script = shellOf(keyed)
      expect(script).not.toBe('')
      const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${script}`], { env })
      const printed = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(printed).toMatchObject([
        { status: 'placed' },
        { code: 'pet_not_available', status: 409 },
        { status: 'cancelled' },
        { status: 'approved' },
        { status: 'delivered' },
        { name: 'Rex the Second', categoryId: 2, status: 'sold' },
        { code: 'precondition_failed', status: 412 },
      ])
      // The refused write changed nothing.
      const pet = printed[5] as { id: number }
      const api = apiOf({ keyed } as Seen)
      const now = await fetch(`${api.baseUrl}/pets/${pet.id}`, {
        headers: { authorization: `Bearer ${api.apiKey}` },
      })
      expect(await now.json()).toMatchObject({ name: 'Rex the Second', categoryId: 2 })
    },
  )
})

describe('the install command', () => {
  it('names the client package the TypeScript snippets import', async () => {
    const install = seen.find((s) => s.visible.startsWith('npm i '))
    const { name } = (await import('@petstore/client/package.json', { with: { type: 'json' } }))
      .default as { name: string }
    expect(install?.visible.trim()).toBe(`npm i ${name}`)
  })
})

/** What a guide's TypeScript program prints, by guide; Getting started's print what they made. */
const programOutput: Record<string, RegExp[]> = {
  'Adopting a pet': [
    /^order \d+ placed; another order: pet_not_available$/m,
    /^order \d+ cancelled$/m,
    /^order \d+ delivered$/m,
    /^pet \d+: sold, Rex II; stale If-Match: precondition_failed$/m,
  ],
}

describe('TypeScript', () => {
  it('type-checks against @petstore/client and runs without error, samples in any order', async () => {
    const samples: [Seen, string][] = []
    for await (const prepared of preparedSamples('TypeScript')) samples.push(prepared)
    const programs = seen
      .filter((s) => s.label === 'snippet' && s.lang === 'ts')
      .map((item): [Seen, string] => [item, runnable(item)])
    const files: [Seen, string][] = []
    for (const [i, [item, source]] of [...samples, ...programs].entries()) {
      const file = join(samplesDir, `sample-${i}.ts`)
      await writeFile(file, source)
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
      if (item.entry) {
        const expected = expectedOutput(item.entry) ?? String(successStatus(item.entry))
        expect(stdout, runName(item)).toContain(expected)
      }
      for (const line of programOutput[item.guide ?? ''] ?? []) {
        expect(stdout, item.name).toMatch(line)
      }
    }
    // A compiler pass over every sample, then a tsx process per sample, beside CI's other suites.
  }, 180_000)
})

describe.each([
  ['JavaScript', process.execPath, 'mjs'],
  ['Python', 'python3', 'py'],
] as const)('%s', (label, interpreter, extension) => {
  it('every sample prints its success body, or its status without one, in any order', async () => {
    let i = 0
    for await (const [item, source] of preparedSamples(label)) {
      const file = join(samplesDir, `${label}-${i++}.${extension}`)
      await writeFile(file, source)
      const { stdout } = await run(interpreter, [file], { env })
      const entry = item.entry as OperationEntry
      expect(stdout, runName(item)).toContain(expectedOutput(entry) ?? String(successStatus(entry)))
    }
  })
})
