import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const readme = read('README.md')
const commands = [...readme.matchAll(/```sh\n([^\n]+)\n```/g)].map((m) => m[1])

describe('README commands', () => {
  it('gives one command that installs and starts, one that installs and tests', () => {
    const install = 'npm install -g pnpm@10.34.9 && pnpm install'
    expect(commands).toContain(`${install} && pnpm start`)
    expect(commands).toContain(`${install} && pnpm test`)
  })

  it('installs the pnpm that package.json names', () => {
    const { packageManager } = JSON.parse(read('package.json')) as { packageManager: string }
    expect(packageManager).toBe('pnpm@10.34.9')
  })

  it('is what .ci/run runs, verbatim', () => {
    const testCommand = commands.find((c) => c?.endsWith('pnpm test'))
    expect(testCommand).toBeDefined()
    expect(read('.ci/run')).toContain(`\n${testCommand} `)
  })
})
