interface Waiting<Q, T> {
  request: Q;
  resolve: (answer: T | PromiseLike<T>) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the calls made in the same turn of the event loop (a patch resolving, writing or removing its files together)
 * into one `many` call answering each in order; a call made alone, or every call when `many` resolves to undefined
 * (it could not serve them together), goes to `one`. An answer may be a promise (a call settles with it, so calls
 * served in separate parts fail apart); a rejection of `many` itself rejects every call it held.
 */
export function gatherCalls<Q, T>(
  many: (requests: readonly Q[]) => Promise<Array<T | PromiseLike<T>> | undefined>,
  one: (request: Q) => Promise<T>,
): (request: Q) => Promise<T> {
  let waiting: Array<Waiting<Q, T>> = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    const each = () => {
      for (const entry of batch) one(entry.request).then(entry.resolve, entry.reject);
    };
    if (batch.length === 1) return each();
    many(batch.map((entry) => entry.request)).then(
      (answers) => (answers ? batch.forEach((entry, index) => entry.resolve(answers[index]!)) : each()),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  };
  return (request) =>
    new Promise<T>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ request, resolve, reject });
    });
}
