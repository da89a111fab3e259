// Every call in flight waits on the run's one AbortSignal. Node warns (MaxListenersExceededWarning)
// when more than ten listeners sit on one event target, so the calls do not each add their own:
// the signal gets one listener, which tells every waiter.
const waiters = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts (at once, if it already has). Returns the way to stop
 * listening; a waiter that is done must call it, or the set of waiters would only grow.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => {};
  }
  let set = waiters.get(signal);
  if (!set) {
    const fresh = new Set<() => void>();
    signal.addEventListener("abort", () => {
      for (const waiter of fresh) waiter();
      fresh.clear();
    }, { once: true });
    waiters.set(signal, fresh);
    set = fresh;
  }
  set.add(listener);
  return () => void set.delete(listener);
}

export const ABORTED: unique symbol = Symbol("aborted");

/**
 * Settles like `promise`, or with ABORTED as soon as `signal` aborts (at once if it already has),
 * whichever comes first. What the loop waits on that it does not control (the model, the policy,
 * the approval) is raced this way, so an abort ends the wait even if the promise never settles.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  let stop = () => {};
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    stop = onAbort(signal, () => resolve(ABORTED));
  });
  return Promise.race([promise, aborted]).finally(stop);
}
