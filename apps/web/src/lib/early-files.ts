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

/** A change heard by both listeners (the document's, then the input's) is taken once. */
const taken = new WeakSet<Event>();

function onChange(event: Event) {
  const input = event.target as HTMLInputElement;
  if (taken.has(event) || !heard.has(input)) return;
  taken.add(event);
  if (input.files?.length) deliver([...input.files]);
}

/**
 * A tap, or Enter or Space, on a prerendered dropzone opens its file input, as the dropzone
 * does once React runs it: on a slow phone the page shows the dropzone seconds before the app
 * has started, and a tap then did nothing. Stopped here, so React never replays it once it
 * hydrates the dropzone (a second file dialog).
 */
function onActivate(event: MouseEvent | KeyboardEvent) {
  if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return;
  const zone = (event.target as Element | null)?.closest?.('[data-activate-on-click="true"]');
  const input = zone?.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input || !heard.has(input) || event.target === input) return;
  event.preventDefault();
  event.stopPropagation();
  input.click();
}

export function listenForEarlyFiles() {
  document.addEventListener('click', onActivate, true);
  document.addEventListener('keydown', onActivate, true);
  // Also on the document, capturing: once hydrateRoot has run, React's listener on #root stops
  // a change in a part of the page not hydrated yet (its chunk still loading) from reaching the
  // input, and drops it. The document hears it first.
  document.addEventListener('change', onChange, true);
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
  document.removeEventListener('click', onActivate, true);
  document.removeEventListener('keydown', onActivate, true);
  document.removeEventListener('change', onChange, true);
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
