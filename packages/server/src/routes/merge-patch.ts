/**
 * JSON Merge Patch (RFC 7396): a patch's members replace the target's, `null` removes a member,
 * and an object patches an object member by the same rules, recursively; anything else replaces
 * the member whole. The patch has been validated against its schema first, so what it may touch
 * is what the spec allows.
 * @see https://www.rfc-editor.org/rfc/rfc7396#section-2
 */
type Json = unknown

const isObject = (value: Json): value is Record<string, Json> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** `target` with `patch` applied; neither is modified. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch
  const result: Record<string, Json> = isObject(target) ? { ...target } : {}
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name]
    else result[name] = mergePatch(result[name], value)
  }
  return result
}
