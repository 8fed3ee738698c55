// Mantine's global styles; each component brings its own (vite.config.ts, mantineStylesPerComponent).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import './app/global.css';
import { listenForEarlyFiles } from './lib/early-files';
import { listenForEarlyTyping } from './lib/early-typing';
import { initialLanguage, uiStrings } from './lib/locale-chunks';

/**
 * The built page fetches its stylesheets without blocking the first paint (vite.config.ts,
 * nonBlockingStylesheet and appPreload); they are applied here and the app waits for them. In
 * development Vite injects styles itself and there are no such links.
 */
function applyStyles(): Promise<unknown> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-app-styles]')];
  return Promise.all(
    links.map((link) => {
      const loaded = link.sheet
        ? Promise.resolve()
        : new Promise((resolve) => {
            link.addEventListener('load', resolve, { once: true });
            link.addEventListener('error', resolve, { once: true }); // unstyled rather than never
          });
      link.media = 'all';
      return loaded;
    }),
  );
}

/**
 * Preloads the chunks the page at this address adds to the app, when index.html names them
 * (tool pages; vite-app-preload.ts). Scripts as module preloads and stylesheets as plain
 * preloads: Vite's loader then applies each stylesheet and waits for it as usual.
 */
function preloadPageChunks() {
  const listed = document.getElementById('page-chunks')?.textContent;
  const files = listed ? (JSON.parse(listed) as Record<string, string[]>)[location.pathname] : [];
  for (const href of files ?? []) {
    const link = document.createElement('link');
    link.crossOrigin = '';
    link.href = href;
    if (href.endsWith('.css')) Object.assign(link, { rel: 'preload', as: 'style' });
    else link.rel = 'modulepreload';
    document.head.append(link);
  }
}

// This first script is small, so the downloads that used to wait for one another (about
// 0.6 s per round trip on a slow phone network) run side by side: the app itself, already
// under way (index.html preloads it), the visitor's language and the page's own chunks, started
// here. React renders once the app, its styles and the strings are in.
// A prerendered page (src/prerender) shows its dropzone before React runs it: a file dropped
// there meanwhile would open in the browser, leaving the page. It is kept from doing so (the
// dropzone, once running, does the same for the whole document).
// Capturing, so it runs first: once hydrateRoot has run, React stops a drop on a part not
// hydrated yet before it would bubble up to the window (lib/early-files says more).
const keepDrop = (event: DragEvent) => event.preventDefault();
window.addEventListener('dragover', keepDrop, true);
window.addEventListener('drop', keepDrop, true);
// A file chosen there is kept for the dropzone React draws (lib/early-files), and words typed
// there for the fields React hydrates (lib/early-typing).
listenForEarlyFiles();
listenForEarlyTyping();

const language = initialLanguage();
uiStrings(language).catch(() => undefined); // startI18n asks again and meets any failure
// A task later, so the language's request (issued from a microtask) is ahead of the page's in
// the browser's queue: the first render waits for the strings, not for the page.
setTimeout(preloadPageChunks);
void Promise.all([import('./app/start'), applyStyles()]).then(([app]) => app.startApp(language));
