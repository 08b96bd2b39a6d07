import { expect, it } from 'vitest'
import { startPetstore } from '../src/index.js'

it('startPetstore serves on 127.0.0.1 with a fresh store and issues working keys', async () => {
  const petstore = await startPetstore()
  try {
    expect(petstore.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/)
    const key = await petstore.issueKey({
      plan: 'enterprise',
      perMinute: 10,
      perDay: 20,
      name: 'bench',
    })
    expect(key).toMatch(/^psk_live_/)
    const reply = await fetch(`${petstore.url}/v1/pets`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect([reply.status, await reply.json()]).toEqual([200, []])
    expect(reply.headers.get('ratelimit-policy')).toContain('q=10')
    await expect(petstore.issueKey({ plan: 'free', perMinute: 5 })).rejects.toThrow('enterprise')
  } finally {
    await petstore.close()
    await petstore.close()
  }
})
