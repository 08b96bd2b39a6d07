import { describe, expect, it } from 'vitest'
import { parseArgs, toolFlags, UsageError } from '../src/args.js'

describe('parseArgs', () => {
  it('reads the flags, ignoring the -- pnpm may pass on', () => {
    expect(parseArgs(['--', '--quick', '--soak', '--profile', '--out=report.md'])).toEqual({
      quick: true,
      soak: true,
      scaleOut: false,
      specDiff: false,
      profile: '',
      out: 'report.md',
      keep: false,
      server: undefined,
      help: false,
    })
    expect(parseArgs(['--profile=/tmp/p']).profile).toBe('/tmp/p')
    expect(parseArgs(['--server=/tmp/server']).server).toBe('/tmp/server')
    expect(parseArgs(['--scale-out']).scaleOut).toBe(true)
    expect(parseArgs(['--spec-diff']).specDiff).toBe(true)
  })

  it('refuses what it does not know', () => {
    expect(() => parseArgs(['--fast'])).toThrow(UsageError)
    expect(() => parseArgs(['--quick=yes'])).toThrow(UsageError)
  })
})

describe('toolFlags', () => {
  const known = ['--base', '--ceiling-on-fastify', '--rounds', '--seconds']

  it('splits each argument at its first =, and maps a bare flag to an empty value', () => {
    const flags = toolFlags(
      'paired',
      ['--', '--base=/tmp/a=b', '--ceiling-on-fastify', '--rounds=8'],
      known,
    )
    expect(flags.get('--base')).toBe('/tmp/a=b')
    expect(flags.get('--ceiling-on-fastify')).toBe('')
    expect(flags.get('--rounds')).toBe('8')
    expect(flags.has('--seconds')).toBe(false)
  })

  it('refuses a flag the command does not take, naming the ones it does', () => {
    expect(() => toolFlags('paired', ['--base=contract', '--round=16', '--help'], known)).toThrow(
      new UsageError(
        'paired takes --base, --ceiling-on-fastify, --rounds, --seconds; not --round, --help',
      ),
    )
  })
})
