/**
 * A result given at once when it is at hand (a cached key, a count kept in this process), else
 * later. Every /v1 request identifies its caller and counts itself before anything else, and
 * those answers are almost always at hand: a promise and a microtask per step would be paid on
 * every request for nothing. `await` reads both.
 */
export type MaybePromise<T> = T | Promise<T>

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise
}

/**
 * `next(value)` now if `value` is at hand, else once it resolves. (Not named `then`: a module
 * exporting `then` is a thenable, and `import()` of it would call it.)
 */
export function andThen<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value)
}
