import { describe, expect, it } from 'vitest'
import { anySignal, systemClock } from '../src/clock.js'

describe('systemClock.sleep', () => {
  it('resolves after the wait', async () => {
    await expect(systemClock.sleep(1)).resolves.toBeUndefined()
  })

  it('rejects with the reason as soon as the signal aborts', async () => {
    const controller = new AbortController()
    const sleeping = systemClock.sleep(60_000, controller.signal)
    controller.abort(new Error('stop'))
    await expect(sleeping).rejects.toThrow('stop')
  })

  it('rejects at once when the signal has already aborted', async () => {
    await expect(systemClock.sleep(60_000, AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    })
  })
})

describe('anySignal', () => {
  it('aborts with the reason of the first signal that aborts', () => {
    const first = new AbortController()
    const second = new AbortController()
    const combined = anySignal([first.signal, second.signal])
    expect(combined.aborted).toBe(false)
    second.abort('second')
    expect(combined.aborted).toBe(true)
    expect(combined.reason).toBe('second')
  })
})
