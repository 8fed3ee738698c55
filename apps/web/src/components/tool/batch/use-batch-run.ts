import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Batch } from '@refract/contracts';
import { cancelBatch, followBatch, startBatch } from '../../../lib/batches';

export type BatchPhase = 'idle' | 'uploading' | 'running' | 'done' | 'cancelled';

/** Runs one batch: upload with progress, then its files' progress live, cancel at any time. */
export function useBatchRun(endpoint: string) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<BatchPhase>('idle');
  const [upload, setUpload] = useState(0);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);

  async function run(fields: (form: FormData) => void, files: File[]) {
    const abort = new AbortController();
    controller.current = abort;
    setError(null);
    setBatch(null);
    setUpload(0);
    setPhase('uploading');
    try {
      const id = await startBatch(endpoint, fields, files, setUpload, abort.signal);
      setPhase('running');
      const last = await followBatch(id, setBatch, abort.signal);
      setPhase(last.status === 'cancelled' ? 'cancelled' : 'done');
    } catch (err) {
      if (abort.signal.aborted) return;
      setError(err);
      setPhase('idle');
    } finally {
      // The uses left have changed.
      void queryClient.invalidateQueries({ queryKey: ['user-stats'] });
    }
  }

  async function cancel() {
    if (phase === 'uploading') {
      controller.current?.abort();
      setPhase('idle');
      return;
    }
    if (batch) setBatch(await cancelBatch(batch.id));
  }

  function reset() {
    controller.current?.abort();
    setPhase('idle');
    setBatch(null);
    setError(null);
    setUpload(0);
  }

  return {
    phase,
    upload,
    batch,
    error,
    busy: phase === 'uploading' || phase === 'running',
    run,
    cancel,
    reset,
  };
}
