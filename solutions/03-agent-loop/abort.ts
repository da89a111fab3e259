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
