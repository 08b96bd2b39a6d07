/**
 * A disposable clone of this workspace to release from, so the test can version, commit and
 * publish without touching the real checkout: the working tree's files as git sees them (tracked
 * and untracked-but-not-ignored, so uncommitted edits are what gets released), plus each
 * package's built `dist/` (turbo builds them before this test runs), committed on a fresh `main`
 * as Changesets expects, and installed with pnpm from the local store only.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { cleanEnv, mustRun } from './processes.js'

const gitIdentity = {
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release-test@localhost',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release-test@localhost',
}

export const gitEnv = (): NodeJS.ProcessEnv => cleanEnv(gitIdentity)

export async function cloneWorkspace(root: string, dest: string): Promise<void> {
  await copyWorkingTree(root, dest)
  for (const name of readdirSync(join(root, 'packages'))) {
    const dist = join(root, 'packages', name, 'dist')
    if (existsSync(dist)) cpSync(dist, join(dest, 'packages', name, 'dist'), { recursive: true })
  }
  await mustRun('git', ['init', '--quiet', '--initial-branch=main'], { cwd: dest })
  await commitAll(dest, 'The workspace as it is under test')
  await mustRun('pnpm', ['install', '--offline', '--frozen-lockfile', '--reporter=append-only'], {
    cwd: dest,
    env: cleanEnv(),
  })
}

/**
 * The working tree's files as git sees them (tracked, and untracked but not ignored: so no
 * `node_modules`, `dist` or data), copied from `root` into `dest`.
 */
export async function copyWorkingTree(root: string, dest: string): Promise<void> {
  const listed = await mustRun(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
    },
  )
  for (const file of new Set(listed.stdout.split('\0'))) {
    const from = join(root, file)
    // A tracked file deleted in the working tree is not part of what gets released.
    if (file === '' || !existsSync(from)) continue
    const to = join(dest, file)
    mkdirSync(dirname(to), { recursive: true })
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), to)
    else cpSync(from, to)
  }
}

export async function commitAll(dir: string, message: string): Promise<void> {
  await mustRun('git', ['add', '--all'], { cwd: dir })
  await mustRun('git', ['commit', '--quiet', '--no-verify', '--message', message], {
    cwd: dir,
    env: gitEnv(),
  })
}
