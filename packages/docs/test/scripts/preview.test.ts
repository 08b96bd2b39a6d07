import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { withoutServiceVariables } from '@petstore/scripts/service-env'
import { afterAll, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('../../', import.meta.url))
let preview: ChildProcess | undefined

afterAll(async () => {
  if (preview && preview.exitCode === null) {
    preview.kill('SIGTERM')
    await once(preview, 'exit')
  }
})

it('serves dist/ and says where, then stops cleanly on SIGTERM', async () => {
  preview = spawn(process.execPath, ['--import', 'tsx', 'scripts/preview.ts'], {
    cwd: packageDir,
    env: withoutServiceVariables(process.env, { PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    preview?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(/docs preview at (http:\/\/\S+)/)
      if (match) resolve(match[1] as string)
    })
    preview?.once('exit', (code) => reject(new Error(`preview exited with ${code}: ${output}`)))
  })
  const response = await fetch(url)
  expect([response.status, response.headers.get('content-type')]).toEqual([
    200,
    'text/html; charset=utf-8',
  ])
  expect(await response.text()).toContain('<title>Pet Adoption Service</title>')
  preview.kill('SIGTERM')
  const [code] = await once(preview, 'exit')
  expect(code).toBe(0)
})
