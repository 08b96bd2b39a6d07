/**
 * Without `PETSTORE_METRICS_PORT` metrics cost nothing: prom-client is never loaded (the metrics
 * modules are imported only when the port is set) and no listener is opened. Checked in a fresh
 * Node process, whose module cache holds only what the built server loaded.
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { beforeAll, expect, it } from 'vitest'
import { requireBuiltServer, serverJs } from '../child-server.js'

beforeAll(requireBuiltServer)

/** Starts the built server in a fresh process with `overrides`; what it loaded and opened. */
function startAndInspect(overrides: string): Promise<{ promClient: boolean; listeners: number }> {
  const script = `
    import { createRequire } from 'node:module'
    const { startPetstore } = await import(${JSON.stringify(pathToFileURL(serverJs).href)})
    const petstore = await startPetstore(${overrides})
    await fetch(petstore.url + '/healthz')
    const cache = Object.keys(createRequire(import.meta.url).cache)
    const listeners = process.getActiveResourcesInfo().filter((name) => name === 'TCPServerWrap').length
    await petstore.close()
    console.log(JSON.stringify({ promClient: cache.some((path) => path.includes('prom-client')), listeners }))
  `
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) => {
      if (error !== null) reject(error)
      else resolve(JSON.parse(stdout))
    })
  })
}

it('loads no metrics code and opens no listener when PETSTORE_METRICS_PORT is unset', async () => {
  expect(await startAndInspect('{}')).toEqual({ promClient: false, listeners: 1 })
})

it('loads prom-client once the port is set (what the check above would see)', async () => {
  expect((await startAndInspect('{ metricsPort: 0 }')).promClient).toBe(true)
})
