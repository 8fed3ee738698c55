import { fetchDownload } from './follow-events';

/** Saves what `url` holds under `filename`, as a click on a download link would. */
export function saveUrl(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
}

/**
 * Fetches an address the server answers with a file (a batch's zip or one of its files, a job's
 * result) and saves it under the server's name, or `name`.
 */
export async function saveDownload(path: string, name?: string) {
  const download = await fetchDownload(path);
  const url = URL.createObjectURL(download.blob);
  saveUrl(url, name ?? download.filename);
  // The save has begun by then; a minute leaves room for a slow disk.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
