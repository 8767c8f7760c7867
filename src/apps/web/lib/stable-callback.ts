// A callback whose identity never changes but which always runs the latest function given: memoised
// components (play/story.tsx) take it without being drawn again on every render of their parent.
import { useCallback, useRef } from 'preact/hooks';

export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  latest.current = fn;
  return useCallback((...args: A) => latest.current(...args), []);
}
