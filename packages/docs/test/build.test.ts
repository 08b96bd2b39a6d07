import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

it('renders the three operations into dist/index.html', () => {
  const html = readFileSync(new URL('../dist/index.html', import.meta.url), 'utf8')
  for (const op of ['listPets', 'createPet', 'getPet']) expect(html).toContain(op)
})
