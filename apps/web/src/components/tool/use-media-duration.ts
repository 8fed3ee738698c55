import { useEffect, useState } from 'react';

/**
 * A chosen file's length in seconds, read by the browser from its header (no upload): the trim
 * fields' bound and the expected size. Null until known, or for a file the browser cannot play.
 */
export function useMediaDuration(file: File | null, kind: 'audio' | 'video'): number | null {
  const [duration, setDuration] = useState<number | null>(null);
  useEffect(() => {
    setDuration(null);
    if (!file) return;
    const url = URL.createObjectURL(file);
    const element = document.createElement(kind);
    element.preload = 'metadata';
    element.onloadedmetadata = () => {
      if (Number.isFinite(element.duration)) setDuration(element.duration);
    };
    element.src = url;
    return () => {
      element.removeAttribute('src');
      URL.revokeObjectURL(url);
    };
  }, [file, kind]);
  return duration;
}
