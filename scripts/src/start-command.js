/**
 * The node flags and entry of the server package's `start` script (`node [flags] dist/server.js`),
 * so that whatever else starts the service (the bench, `pnpm dev`) runs it as `pnpm start` does,
 * V8 settings included. Plain JavaScript with its types beside it (start-command.d.ts), because
 * the bench imports it from its built `dist`, run by Node without a TypeScript loader.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * @param {string} serverDir
 * @returns {{ script: string, nodeArgs: string[], entry: string }}
 */
export function startCommand(serverDir) {
  const manifest = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8'))
  const start = manifest.scripts?.start ?? ''
  const words = start.trim().split(/\s+/)
  const entry = words.at(-1) ?? ''
  if (words[0] !== 'node' || !entry.endsWith('.js') || words.slice(1, -1).some(notAFlag)) {
    throw new Error(
      `${join(serverDir, 'package.json')}: the start script "${start}" is not "node [flags] <file>.js"`,
    )
  }
  return { script: start, nodeArgs: words.slice(1, -1), entry: join(serverDir, entry) }
}

/** @param {string} word */
const notAFlag = (word) => !word.startsWith('--')
