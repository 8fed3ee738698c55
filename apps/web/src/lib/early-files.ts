/**
 * Files chosen in a prerendered page's file input before React has taken it over (the page is
 * HTML from the build until then: src/prerender). main.tsx listens from the first script, and
 * start.tsx looks in the page's inputs before React draws over them; the first dropzone that
 * mounts takes the files and ends the listening, so a file picked while the scripts still
 * arrive is not lost.
 */
let early: File[] = [];

const remember = (event: Event) => {
  const input = event.target;
  if (input instanceof HTMLInputElement && input.type === 'file' && input.files?.length)
    early = [...input.files];
};

export function listenForEarlyFiles() {
  document.addEventListener('change', remember, true);
}

/** Files chosen before even main.tsx ran are still in the prerendered input: kept too. */
export function keepFilesChosenIn(root: HTMLElement) {
  for (const input of root.querySelectorAll<HTMLInputElement>('input[type="file"]'))
    if (input.files?.length) early = [...input.files];
}

/** The files chosen before React ran (usually none); listening ends here. */
export function takeEarlyFiles(): File[] {
  document.removeEventListener('change', remember, true);
  const files = early;
  early = [];
  return files;
}
