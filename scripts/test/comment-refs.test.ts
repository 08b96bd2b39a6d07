/**
 * No comment in the TypeScript sources names a file or a symbol that does not exist
 * (src/comment-refs.ts), and the check finds one that does, on a fixture.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { describeStale, staleReferences } from '../src/comment-refs.js'
import { workspaceRoot } from '../src/workspace.js'

/**
 * References that do not resolve in a checkout and are right: each says why. An entry that no
 * longer matches anything fails the test, so the list only shrinks with the code.
 */
const allowed: Readonly<Record<string, string>> = {
  'index.html': 'a page the docs build writes into dist/',
  'changelog.html': 'a page the docs build writes into dist/',
  'package/': 'the folder npm unpacks a tarball into',
}

describe('comments in the repository', () => {
  it('name only files and symbols that exist', () => {
    const stale = staleReferences(workspaceRoot)
    const unexpected = stale.filter((s) => !Object.hasOwn(allowed, s.name))
    expect(describeStale(unexpected), 'fix these comments, or allow one with a reason').toBe('')
    const unused = Object.keys(allowed).filter((name) => !stale.some((s) => s.name === name))
    expect(unused, 'allowed references nothing names any more').toEqual([])
  }, 120_000)
})

describe('the check', () => {
  const fixture = fileURLToPath(new URL('fixtures/comment-refs/', import.meta.url))

  it('names the file, line and name of each missing path and symbol', () => {
    expect(describeStale(staleReferences(fixture)).split('\n')).toEqual([
      'src/present.ts:10: the comment names a symbol that does not exist: `AlsoGone`',
      'src/present.ts:10: the comment names a path that does not exist: `gone.ts`',
      'src/present.ts:10: the comment names a path that does not exist: `lib/vanished.md`',
      'src/present.ts:10: the comment names a symbol that does not exist: `vanishedHelper`',
      'src/present.ts:15: the comment calls in an example a name that is neither exported nor declared in the file: `removedCall`',
      'src/present.ts:16: the comment calls in an example a name that is neither exported nor declared in the file: `hiddenHelper`',
      'src/present.ts:21: the comment names a symbol that does not exist: `StaleName`',
      'src/present.ts:21: the comment names a path that does not exist: `old/place.ts`',
    ])
  }, 60_000)

  it('lets an allowed reference through', () => {
    const allow = { 'gone.ts': 'test', 'lib/vanished.md': 'test', vanishedHelper: 'test' }
    const names = staleReferences(fixture, { allow }).map((s) => s.name)
    expect(names).toEqual(['AlsoGone', 'removedCall', 'hiddenHelper', 'StaleName', 'old/place.ts'])
  }, 60_000)
})
