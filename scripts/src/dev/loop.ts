/**
 * One edit, one cycle: regenerate (spec edits), refresh the edited packages' JavaScript, then
 * restart the service and rebuild the docs side by side, and report each step's time and the
 * time from the write. Cycles run one at a time; edits saved meanwhile make up the next. `tsc`
 * builds of the packages' declarations follow when nothing is pending; a new edit cancels them.
 */
import { countFindings, formatFindings } from '../spec-lint/finding.js'
import { type Change, editedNames } from './changes.js'
import { rebuildDocs } from './docs.js'
import { buildWithTsc, declarationsStale, refreshJavaScript } from './package-dist.js'
import { regenerate } from './regenerate.js'
import type { Service } from './service.js'
import { specDiffSummary } from './spec-diff.js'
import type { EditBatch } from './watch.js'
import type { Workspace } from './workspace.js'

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

export class DevLoop {
  readonly #ws: Workspace
  readonly #service: Service
  readonly #log: (line: string) => void
  #pending: EditBatch | undefined
  #busy = false
  #declarations: AbortController | undefined
  /** The packages built from `src/` into `dist/`, in dependency order. */
  readonly #packages: readonly [Change, string][]

  constructor(ws: Workspace, service: Service, log: (line: string) => void) {
    this.#ws = ws
    this.#service = service
    this.#log = log
    this.#packages = [
      ['types', ws.typesDir],
      ['server', ws.serverDir],
      ['client', ws.clientDir],
    ]
  }

  /** Brings everything up to date and starts the service, as if every source had been edited. */
  start(): Promise<void> {
    const all: Change[] = ['spec', 'types', 'server', 'client', 'docs']
    return this.#drainWith({ changes: new Set(all), files: new Set(), since: performance.now() })
  }

  /** Queues an edit; cancels declaration builds that the edit would make stale anyway. */
  enqueue(batch: EditBatch): void {
    if (this.#pending === undefined) this.#pending = batch
    else {
      for (const change of batch.changes) this.#pending.changes.add(change)
      for (const file of batch.files) this.#pending.files.add(file)
    }
    this.#declarations?.abort()
    void this.#drain()
  }

  async close(): Promise<void> {
    this.#pending = undefined
    this.#declarations?.abort()
    await this.#service.stop()
  }

  #drainWith(batch: EditBatch): Promise<void> {
    this.#pending = batch
    return this.#drain()
  }

  async #drain(): Promise<void> {
    if (this.#busy) return
    this.#busy = true
    try {
      for (let batch = this.#pending; batch !== undefined; batch = this.#pending) {
        this.#pending = undefined
        await this.#cycle(batch).catch((error: unknown) => this.#log(`cycle failed: ${error}`))
        if (this.#pending === undefined) await this.#buildDeclarations()
      }
    } finally {
      this.#busy = false
    }
  }

  async #cycle({ changes, files, since }: EditBatch): Promise<void> {
    const startup = files.size === 0
    if (!startup) this.#log(`${editedNames(this.#ws.root, files)} changed`)
    const steps: string[] = []
    let typesChanged = changes.has('types')
    let specChanged = false

    if (changes.has('spec')) {
      const generated = await regenerate(this.#ws)
      if (!generated.ok) {
        this.#log(`${generated.why}, nothing regenerated:\n${indent(generated.error)}`)
        if (this.#service.running) this.#log('the last good service keeps running')
      } else {
        const { notes } = generated
        if (notes.length > 0) {
          this.#log(`spec lint: ${countFindings(notes)}:\n${indent(formatFindings(notes))}`)
        }
        specChanged = generated.changed.length > 0
        typesChanged ||= specChanged
        const unchanged = specChanged || startup ? '' : ' (no generated file changed)'
        steps.push(`regenerated types ${seconds(generated.ms)}${unchanged}`)
      }
    }
    const started = performance.now()
    let refreshed = 0
    for (const [change, dir] of this.#packages) {
      if (change === 'types' ? typesChanged : changes.has(change)) {
        refreshed += (await refreshJavaScript(dir)).length
      }
    }
    if (refreshed > 0) steps.push(`dist refreshed ${seconds(performance.now() - started)}`)

    const restart = typesChanged || changes.has('server') || !this.#service.running
    const docs = typesChanged || changes.has('docs')
    const [service, site] = await Promise.all([
      restart ? finished(this.#service.restart()) : undefined,
      docs ? finished(rebuildDocs(this.#ws)) : undefined,
    ])
    const fromEdit: string[] = []
    if (service?.value.ok) {
      steps.push(`service ${startup ? 'started' : 'restarted'} ${seconds(service.value.ms)}`)
      fromEdit.push(`to service ${seconds(service.at - since)}`)
    } else if (service !== undefined && !service.value.ok) {
      this.#log(`service not running: ${service.value.error}`)
    }
    if (site?.value.status === 'built') {
      steps.push(`docs rebuilt ${seconds(site.value.ms)}`)
      fromEdit.push(`to docs ${seconds(site.at - since)}`)
    } else if (site?.value.status === 'current') {
      steps.push('docs current')
    } else if (site?.value.status === 'failed') {
      this.#log(`docs build failed:\n${indent(site.value.error)}`)
    }
    if (steps.length > 0) {
      const origin = startup ? 'start' : 'edit'
      const total = fromEdit.length > 0 ? `; from the ${origin}: ${fromEdit.join(', ')}` : ''
      this.#log(`${steps.join(', ')}${total}`)
    }
    if (startup) {
      const origin = this.#service.specUrl.origin
      const where = this.#service.running ? `service at ${origin}/v1, docs at ${origin}/docs; ` : ''
      this.#log(`${where}watching spec/ and packages/*/src`)
    }
    if (specChanged && !startup) for (const line of await specDiffSummary(this.#ws)) this.#log(line)
  }

  /** `tsc` builds, in dependency order, of the packages whose sources moved since their last. */
  async #buildDeclarations(): Promise<void> {
    for (const [name, dir] of this.#packages) {
      if (!declarationsStale(dir)) continue
      this.#declarations = new AbortController()
      const result = await buildWithTsc(dir, this.#declarations.signal)
      this.#declarations = undefined
      if (result.code === null) return
      if (result.code === 0) this.#log(`${name} dist rebuilt by tsc ${seconds(result.ms)}`)
      else this.#log(`${name} does not compile (tsc):\n${indent(result.output.trim())}`)
    }
  }
}

/** Notes when a step finished, for times counted from the edit. */
async function finished<T>(step: Promise<T>): Promise<{ value: T; at: number }> {
  const value = await step
  return { value, at: performance.now() }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
}
