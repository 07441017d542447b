/**
 * A promise and the functions that settle it, for a test to settle it when it says so: the
 * hand-offs between a test and a fake it drives, instead of waiting a while.
 */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
