import { useCallback, useEffect, useRef, useState } from 'react';
import { postTool } from '../../lib/upload';

export interface ToolResult {
  url: string;
  filename: string;
  size: number;
  headers: (name: string) => string | null;
}

export type ToolPhase = 'idle' | 'uploading' | 'processing' | 'done' | 'failed';

/** Runs a tool on the server: upload progress, then processing, then a result or an error. */
export function useToolRun(path: string) {
  const [phase, setPhase] = useState<ToolPhase>('idle');
  const [progress, setProgress] = useState(0);
  const [result, setResult] = useState<ToolResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const urlRef = useRef<string | null>(null);

  const reset = useCallback(() => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    setResult(null);
    setError(null);
    setPhase('idle');
    setProgress(0);
  }, []);

  useEffect(() => reset, [reset]);

  const run = useCallback(
    async (body: FormData | string) => {
      reset();
      setPhase('uploading');
      try {
        const response = await postTool(path, body, (fraction) => {
          setProgress(fraction);
          if (fraction >= 1) setPhase('processing');
        });
        const url = URL.createObjectURL(response.blob);
        urlRef.current = url;
        setResult({
          url,
          filename: response.filename,
          size: response.blob.size,
          headers: response.headers,
        });
        setPhase('done');
      } catch (err) {
        setError(err);
        setPhase('failed');
      }
    },
    [path, reset],
  );

  return {
    phase,
    progress,
    result,
    error,
    run,
    reset,
    busy: phase === 'uploading' || phase === 'processing',
  };
}
