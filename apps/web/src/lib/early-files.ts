/**
 * Files chosen in a prerendered page's file input before React has taken it over (the page is
 * HTML from the build until then: src/prerender). main.tsx listens on each such input itself,
 * not on the document, because a signed-in reader's page is drawn afresh: the input they picked
 * from may already be out of the page when its file arrives (a file dialog left open, a test
 * that found the input a moment before), and its events no longer reach the document. The
 * dropzone receives the files, now and later.
 */
let early: File[] = [];
let receiver: ((files: File[]) => void) | null = null;
const heard = new Set<HTMLInputElement>();

function deliver(files: File[]) {
  if (receiver) receiver(files);
  else early = files;
}

function onChange(event: Event) {
  const input = event.currentTarget as HTMLInputElement;
  if (input.files?.length) deliver([...input.files]);
}

export function listenForEarlyFiles() {
  for (const input of document.querySelectorAll<HTMLInputElement>('#root input[type="file"]')) {
    heard.add(input);
    input.addEventListener('change', onChange);
    if (input.files?.length) deliver([...input.files]);
  }
}

/** The dropzone takes the files chosen so far and any chosen later; returns its goodbye. */
export function receiveEarlyFiles(onFiles: (files: File[]) => void): () => void {
  // An input React hydrated is its own now: its dropzone hears it, so this stops. One it drew
  // over is out of the page, and stays heard.
  for (const input of heard) {
    if (!input.isConnected) continue;
    input.removeEventListener('change', onChange);
    heard.delete(input);
  }
  receiver = onFiles;
  const files = early;
  early = [];
  if (files.length > 0) onFiles(files);
  return () => {
    if (receiver === onFiles) receiver = null;
  };
}
