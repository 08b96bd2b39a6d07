/**
 * The contract ceiling's pagination cursors: the service's own codec (`routes/cursor.ts`, one
 * AES-128 block) under a fixed secret, so that the bench can write the cursors of a cold walk for
 * the ceiling without walking its links.
 */
import { type CursorCodec, createCursorCodec } from '@petstore/server/internal/cursor'

/** A ceiling's secret, not a secret: the bench writes the walk's cursors with it. */
export const contractCursorSecret = 'contract-ceiling'

export function createContractCursors(): CursorCodec {
  return createCursorCodec(contractCursorSecret, 'listPets')
}
