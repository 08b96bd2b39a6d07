import { describe, expect, it } from 'vitest'
import { parseArgs, UsageError } from '../src/args.js'

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
