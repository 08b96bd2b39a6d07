import { describe, expect, it } from 'vitest'
import { nextCursor } from '../src/probe.js'

describe('nextCursor', () => {
  it('reads the cursor of the next link, decoded', () => {
    expect(nextCursor('</v1/pets?limit=1&status=sold&cursor=eyJ2Ijox.abc%3D>; rel="next"')).toBe(
      'eyJ2Ijox.abc=',
    )
  })

  it('is undefined without a next link', () => {
    expect(nextCursor(undefined)).toBeUndefined()
    expect(nextCursor('</docs>; rel="deprecation"')).toBeUndefined()
  })
})
