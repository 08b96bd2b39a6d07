/**
 * The bump each package gets from the changesets waiting in `.changeset/`, parsed by Changesets'
 * own parser so that a file it would refuse is refused here too.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import parseChangeset from '@changesets/parse'

export type Bump = 'none' | 'patch' | 'minor' | 'major'

/** Smallest first. */
export const BUMPS: readonly Bump[] = ['none', 'patch', 'minor', 'major']

export const atLeast = (bump: Bump, floor: Bump) => BUMPS.indexOf(bump) >= BUMPS.indexOf(floor)

/** Package name -> the largest pending bump, for every package a changeset names. */
export function pendingBumps(changesetDir: string): Map<string, Bump> {
  const bumps = new Map<string, Bump>()
  const files = readdirSync(changesetDir).filter((f) => f.endsWith('.md') && f !== 'README.md')
  for (const file of files.sort()) {
    const path = join(changesetDir, file)
    let releases: { name: string; type: Bump }[]
    try {
      releases = parseChangeset(readFileSync(path, 'utf8')).releases
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`)
    }
    for (const { name, type } of releases) {
      if (!atLeast(bumps.get(name) ?? 'none', type)) bumps.set(name, type)
    }
  }
  return bumps
}
