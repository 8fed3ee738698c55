import { useCallback, useMemo, useState } from 'react';

/** How a tool page keeps an editor's setting for each file of a batch (see usePerFile). */
export interface PerFile<T> {
  /** File `index`'s setting: its own, or else the first file's, which every other file follows. */
  get(index: number): T;
  /** Changes file `index` only (the first file's change is what the others follow); a change
   * to the same value changes nothing. */
  update(index: number, change: (value: T) => T): void;
  /** Whether file `index` (after the first) has been given a setting of its own. */
  hasOwn(index: number): boolean;
  /** File `index`'s setting becomes every file's. */
  applyToAll(index: number): void;
  /** The files with a setting of their own, in order. */
  ownIndexes(): number[];
  /** Every file back to `initial` (a new choice of files). */
  reset(): void;
}

/**
 * An editor's setting per file of a batch (crop frame, blur areas, watermark position): the
 * first file's setting is the one every file follows, until a file is given its own while it
 * is shown, or one file's setting is applied to all. One file alone is simply the first file.
 */
export function usePerFile<T>(initial: T): PerFile<T> {
  const [state, setState] = useState({ first: initial, own: new Map<number, T>() });

  const update = useCallback((index: number, change: (value: T) => T) => {
    setState((s) => {
      const before = index === 0 ? s.first : (s.own.get(index) ?? s.first);
      const after = change(before);
      // Editors report their state on showing a file too (the cropper does): that is no change.
      if (JSON.stringify(after) === JSON.stringify(before)) return s;
      if (index === 0) return { ...s, first: after };
      return { ...s, own: new Map(s.own).set(index, after) };
    });
  }, []);
  const applyToAll = useCallback((index: number) => {
    setState((s) => ({ first: s.own.get(index) ?? s.first, own: new Map() }));
  }, []);
  const reset = useCallback(() => setState({ first: initial, own: new Map() }), [initial]);

  return useMemo(
    () => ({
      get: (index) => state.own.get(index) ?? state.first,
      update,
      hasOwn: (index) => state.own.has(index),
      applyToAll,
      ownIndexes: () => [...state.own.keys()].sort((a, b) => a - b),
      reset,
    }),
    [state, update, applyToAll, reset],
  );
}
