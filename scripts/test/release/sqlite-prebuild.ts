/**
 * better-sqlite3 installs with `prebuild-install || node-gyp rebuild`: it downloads a prebuilt
 * binary, and compiles from source (minutes on this machine) when it cannot. The download host is
 * out of reach here, so the consumer gets what prebuild-install would have downloaded from a
 * local prebuilds directory instead: the workspace's own binary, built from source by pnpm for
 * this very Node ABI, packed under the name prebuild-install looks for. Should the consumer
 * resolve another better-sqlite3 version, the name does not match and it compiles as usual.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { mustRun } from './processes.js'

const serverRequire = createRequire(
  new URL('../../../packages/server/package.json', import.meta.url),
)

/** Packs the workspace's binary into `dir`; returns the better-sqlite3 version it is for. */
export async function packSqlitePrebuild(dir: string): Promise<string> {
  const packageDir = dirname(serverRequire.resolve('better-sqlite3/package.json'))
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string
  }
  mkdirSync(dir, { recursive: true })
  const tarball = join(
    dir,
    `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
  )
  await mustRun('tar', ['-czf', tarball, '-C', packageDir, 'build/Release/better_sqlite3.node'], {
    cwd: dir,
  })
  return version
}
