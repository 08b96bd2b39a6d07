/**
 * `pnpm dev`: the edit loop. Watches `spec/` and the packages' `src/`; a spec edit is linted,
 * regenerated, and followed by a restarted service, rebuilt docs and the `spec:diff` summary; a
 * source edit redoes only what reads that source. An invalid spec is reported and the last good
 * service keeps running. Ctrl-C stops the loop and the service.
 */
import { DevLoop } from './loop.js'
import { Service, serviceUrl } from './service.js'
import { watchWorkspace } from './watch.js'
import { thisWorkspace } from './workspace.js'

const log = (line: string) => process.stdout.write(`[dev] ${line}\n`)

let url: URL
try {
  url = serviceUrl(process.env)
} catch (error) {
  process.stderr.write(`[dev] ${(error as Error).message}\n`)
  process.exit(1)
}
const service = new Service(thisWorkspace.serverDir, url, log)
if (await service.answers()) {
  process.stderr.write(
    `[dev] something already answers on ${url.origin}: stop it, or run pnpm dev with another PORT\n`,
  )
  process.exit(1)
}

const loop = new DevLoop(thisWorkspace, service, log)
const stopWatching = watchWorkspace(thisWorkspace, (batch) => loop.enqueue(batch))
let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return
    closing = true
    stopWatching()
    void loop.close().then(() => process.exit(0))
  })
}
await loop.start()
