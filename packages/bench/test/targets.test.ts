import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startService } from '../src/targets.js'
import { tempDir } from './helpers.js'

/** A server package whose `dist/server.js` answers `/healthz` with the flags node was given. */
function fakeServerPackage(dir: string, start: string): string {
  mkdirSync(join(dir, 'dist'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start } }))
  writeFileSync(
    join(dir, 'dist', 'server.js'),
    `require('node:http').createServer((req, res) => res.end(JSON.stringify(process.execArgv)))
       .listen(Number(process.env.PORT), process.env.HOST)`,
  )
  return dir
}

describe('startService', () => {
  let temp: ReturnType<typeof tempDir>
  afterEach(() => temp.remove())

  it('runs the server with the node flags of its start script, then the extra ones', async () => {
    temp = tempDir()
    const serverDir = fakeServerPackage(temp.dir, 'node --max-semi-space-size=4 dist/server.js')
    const service = await startService({
      serverDir,
      dbPath: join(temp.dir, 'unused.db'),
      logPath: join(temp.dir, 'service.log'),
      nodeArgs: ['--stack-size=900'],
    })
    try {
      const execArgv = await (await fetch(`${service.url}/healthz`)).json()
      expect(execArgv).toEqual(['--max-semi-space-size=4', '--stack-size=900'])
    } finally {
      await service.stop()
    }
  })
})
