import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startCommand } from '../src/start-command.js'

const serverDirs: string[] = []
afterEach(() => {
  for (const dir of serverDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function serverPackage(start: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-start-command-'))
  serverDirs.push(dir)
  mkdirSync(join(dir, 'dist'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start } }))
  return dir
}

describe('startCommand', () => {
  it("reads the server package's own start script (what the bench and `pnpm dev` run)", () => {
    const server = fileURLToPath(new URL('../../packages/server', import.meta.url))
    expect(startCommand(server).entry).toBe(join(server, 'dist', 'server.js'))
  })

  it('splits the flags from the file', () => {
    const dir = serverPackage('node --max-semi-space-size=16 --stack-size=900 dist/server.js')
    expect(startCommand(dir)).toEqual({
      script: 'node --max-semi-space-size=16 --stack-size=900 dist/server.js',
      nodeArgs: ['--max-semi-space-size=16', '--stack-size=900'],
      entry: join(dir, 'dist', 'server.js'),
    })
  })

  it.each([
    'tsx src/server.ts',
    'node dist/server.js --port 3000',
    'NODE_ENV=production node dist/server.js',
    '',
  ])('refuses a start script it cannot run the same way: %j', (start) => {
    const dir = serverPackage(start)
    expect(() => startCommand(dir)).toThrow(/is not "node \[flags\] <file>\.js"/)
  })
})
