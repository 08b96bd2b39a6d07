/**
 * The base image the image test builds the Dockerfile over: the stand-in for the Dockerfile's
 * default `BASE` (node:<major>-<suite>-slim), made offline by make-base.sh from Debian's packages
 * and the npm package `node` at the version CI runs for that major (`.ci/run`'s OTHER_NODES).
 * Made once and kept in buildah's storage under a tag that hashes what made it, so a run finds
 * it there and only a change to the recipe makes a new one (about 1-4 minutes).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { mustRun, run } from '../release/processes.js'

const here = dirname(new URL(import.meta.url).pathname)
export const repoRoot = join(here, '..', '..', '..')
const recipe = join(here, 'make-base.sh')
/** npm as the official Node 22 images ship it (their npm 10 line). */
const npmSpec = 'npm@10.9.9'

export interface DefaultBase {
  /** e.g. `node:22-bookworm-slim` */
  image: string
  major: number
  /** The Debian suite of the image, e.g. `bookworm`. */
  suite: string
}

/** The Dockerfile's `ARG BASE=node:<major>-<suite>-slim`, which the stand-in imitates. */
export function dockerfileBase(
  dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8'),
): DefaultBase {
  const match = /^ARG BASE=(node:(\d+)-([a-z]+)-slim)$/m.exec(dockerfile)
  if (!match) throw new Error('Dockerfile: no `ARG BASE=node:<major>-<suite>-slim` line')
  return { image: match[1] as string, major: Number(match[2]), suite: match[3] as string }
}

/** The exact Node version `.ci/run` tests for `major`, so the image runs a Node CI runs too. */
export function ciNodeVersion(major: number): string {
  const ciRun = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8')
  const versions = /^OTHER_NODES=\(([^)]*)\)/m.exec(ciRun)?.[1]?.trim().split(/\s+/) ?? []
  const version = versions.find((candidate) => candidate.startsWith(`${major}.`))
  if (!version)
    throw new Error(`.ci/run's OTHER_NODES has no Node ${major} (it has ${versions.join(', ')})`)
  return version
}

/**
 * The npm package `node@version` installed where `.ci/run` keeps it (shared with CI's legs), and
 * the directory of its platform package: bin/node and include/node.
 */
async function nodePackage(version: string): Promise<string> {
  const cache =
    process.env.PETSTORE_CI_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'petstore-ci')
  const prefix = join(cache, `node-${version}`)
  const installed = async () =>
    (
      await run(
        'find',
        [join(prefix, 'node_modules'), '-path', '*/include/node/node_version.h', '-print', '-quit'],
        { cwd: repoRoot },
      )
    ).stdout.trim()
  let headers = existsSync(prefix) ? await installed() : ''
  if (headers === '') {
    await mustRun(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', `node@${version}`],
      { cwd: repoRoot },
    )
    headers = await installed()
  }
  if (headers === '') throw new Error(`npm's node@${version} in ${prefix} has no include/node`)
  return headers.slice(0, -'/include/node/node_version.h'.length)
}

/** The base image's tag, made first if buildah's storage does not have it. */
export async function ensureBaseImage(): Promise<{ tag: string; made: boolean; seconds: number }> {
  const started = Date.now()
  const { suite, major } = dockerfileBase()
  const version = ciNodeVersion(major)
  const hash = createHash('sha256')
    .update(readFileSync(recipe))
    .update(`\0${suite}\0${version}\0${npmSpec}`)
    .digest('hex')
    .slice(0, 12)
  const tag = `localhost/petstore-test-base:${hash}`
  const exists = async () =>
    (await run('buildah', ['inspect', '--type', 'image', tag], { cwd: repoRoot })).code === 0
  if (await exists()) return { tag, made: false, seconds: 0 }
  const packageDir = await nodePackage(version)
  // One maker at a time on this machine: other checkouts may run this suite too.
  await mustRun(
    'flock',
    ['/var/tmp/petstore-test-base.lock', 'bash', recipe, tag, suite, packageDir, npmSpec],
    { cwd: repoRoot },
  )
  return { tag, made: true, seconds: (Date.now() - started) / 1000 }
}
