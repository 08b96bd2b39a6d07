import { execFileSync } from 'node:child_process'
import { expect, it } from 'vitest'

const root = new URL('../../', import.meta.url).pathname

/**
 * Turbo runs `generate` before this test, so a spec edit has already rewritten the generated
 * files: they must then match what is committed, or the change is not finished.
 */
it('has the freshly generated files committed', () => {
  const changed = execFileSync(
    'git',
    ['status', '--porcelain', '--', 'packages/types/src/generated', 'spec/SUPPORT.md'],
    { cwd: root, encoding: 'utf8' },
  )
  expect(changed, 'generated files differ from the committed ones: review and commit them').toBe('')
})
