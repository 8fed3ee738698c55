/**
 * Writes the public pages (public-pages.ts) as HTML in every language, at build time, after
 * the browser build (`npm run build -w apps/web`): React draws each page as a visitor first
 * sees it into the built index.html, so its content paints with the HTML, before any script;
 * the browser then hydrates it (app/start.tsx). The server picks the file by address and
 * language (apps/server/src/plugins/web-app.ts). Decision 036.
 *
 * Built for Node (`vite build --ssr`, into dist-ssr) and called by prerender.mjs: this module
 * does nothing when loaded, since the pages' lazy chunks import it back.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@refract/contracts';
import { AppProviders } from '../app/providers';
import { directionOf, loadLegalTexts, startI18n, switchLanguage } from '../lib/i18n';
import { prerenderedHead } from '../lib/use-page-title';
import { PRERENDERED_PATHS } from './public-pages';
import { pageDataElement, type PageData } from '../lib/page-data';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * The page at `path` as React draws it before any effect or query has run: its queries
 * unanswered, or answered with `data`.
 */
async function render(path: string, data?: PageData) {
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders location={path} data={data} />
    </StrictMode>,
    {
      // Every part in place in the HTML: a large part would otherwise come after the rest with
      // an inline script to move it, which the CSP forbids (and a page here needs no streaming).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => void errors.push(error),
    },
  );
  let html = '';
  await new Promise((resolve, reject) =>
    prelude
      .pipe(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            html += chunk.toString();
            done();
          },
        }),
      )
      .on('finish', resolve)
      .on('error', reject),
  );
  // A part that failed would be left to the browser to draw: the build stops instead.
  if (errors.length > 0) throw new Error(`prerender: ${path} failed`, { cause: errors[0] });
  if (html.includes('<script')) throw new Error(`prerender: ${path} has an inline script`);
  return html;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The files a tool page adds to the app, as index.html lists them for main.tsx. */
function pageChunks(template: string): Record<string, string[]> {
  const json = template.match(/<script type="application\/json" id="page-chunks">(.*?)<\/script>/s);
  if (!json) throw new Error('prerender: index.html lists no page chunks');
  return JSON.parse(json[1]!) as Record<string, string[]>;
}

/** A built stylesheet's text by its address (`/assets/x.css`). */
export type ReadStyle = (href: string) => string;

const APP_STYLES =
  /<link rel="stylesheet" crossorigin href="([^"]+)" media="print" data-app-styles>/g;

/**
 * index.html with the page in it. The page is drawn with Mantine's classes and must not show
 * unstyled, so its stylesheets (the app's, and a tool page's own) are in the HTML itself: a
 * `<link>` would hold the first paint for a round trip while the scripts share the network.
 * The links stay, as print media switched on by main.tsx as on other pages (decision 024), so
 * Vite's loader finds them and the app starts as it does there. Mantine's light scheme is set
 * on <html>, as MantineProvider would set it in an effect.
 */
function page(
  template: string,
  path: string,
  language: Language,
  body: string,
  readStyle: ReadStyle,
  data?: PageData,
) {
  const appStyles = [...template.matchAll(APP_STYLES)].map((match) => match[1]!);
  const pageStyles = (pageChunks(template)[path] ?? []).filter((file) => file.endsWith('.css'));
  const links = pageStyles.map(
    (href) =>
      `  <link rel="stylesheet" crossorigin href="${href}" media="print" data-app-styles>\n`,
  );
  const inline = [...appStyles, ...pageStyles].map(
    (href) => `  <style>${readStyle(href)}</style>\n`,
  );
  const head = { ...prerenderedHead };
  let html = template
    .replace(
      /<html lang="en" dir="ltr">/,
      `<html lang="${language}" dir="${directionOf(language)}" data-mantine-color-scheme="light">`,
    )
    .replace('</head>', `${links.join('')}${inline.join('')}  </head>`)
    .replace(
      /<div id="root">.*<\/body>/s,
      `<div id="root" data-prerendered="${language}">${body}</div>\n${data ? `  ${pageDataElement(data)}\n` : ''}  </body>`,
    );
  if (head.title) {
    const title = escapeHtml(head.title);
    const description = escapeHtml(head.description);
    html = html
      .replace(/<title>.*?<\/title>/, `<title>${title}</title>`)
      .replace(/(<meta\s+name="description"\s+content=")[^"]*"/, `$1${description}"`)
      .replace(/(<meta property="og:title" content=")[^"]*"/, `$1${title}"`)
      .replace(/(<meta\s+property="og:description"\s+content=")[^"]*"/, `$1${description}"`)
      .replace(/(<meta property="og:url" content=")[^"]*"/, `$1${path}"`);
  }
  return html;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * dist/pages/<language>/<path>.html, with the .br and .gz the server sends (as vite.config.ts).
 * Brotli at quality 11 is most of the prerender's work (about 140 ms a page, six times the
 * drawing), so it runs in libuv's threads while the next pages are drawn: the async forms give
 * the same bytes as the sync ones, and every core is busy instead of one.
 */
async function write(path: string, language: Language, html: string) {
  const file = join(dist, 'pages', language, `${path === '/' ? 'index' : path.slice(1)}.html`);
  await mkdir(dirname(file), { recursive: true });
  const brotli = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
  await Promise.all([
    writeFile(file, html),
    brotliAsync(html, { params: brotli }).then((bytes) => writeFile(`${file}.br`, bytes)),
    gzipAsync(html, { level: 9 }).then((bytes) => writeFile(`${file}.gz`, bytes)),
  ]);
}

let started = false;

/**
 * The page at `path` in `language`: `template` (the built index.html) with the page in it,
 * drawn with the server's `data` when given (apps/server/src/plugins/live-pages.ts).
 */
export async function prerenderPage(
  template: string,
  path: string,
  language: Language,
  readStyle: ReadStyle,
  data?: PageData,
) {
  if (!started) await startI18n(DEFAULT_LANGUAGE);
  started = true;
  await switchLanguage(language);
  await loadLegalTexts(language);
  Object.assign(prerenderedHead, { title: '', description: '' });
  return page(template, path, language, await render(path, data), readStyle, data);
}

/** The built index.html and a reader of its stylesheets, each read once for every page. */
async function builtShell() {
  const template = await readFile(join(dist, 'index.html'), 'utf8');
  const styles = new Map<string, string>();
  const readStyle = (href: string) => {
    if (!styles.has(href)) styles.set(href, readFileSync(join(dist, href), 'utf8'));
    return styles.get(href)!;
  };
  return { template, readStyle };
}

/**
 * The page at `path` in each language, drawn with the server's `data`, as HTML by language
 * (apps/server/src/plugins/live-pages.ts calls this in a worker thread).
 */
export async function drawLivePage(path: string, languages: readonly Language[], data: PageData) {
  const { template, readStyle } = await builtShell();
  const pages: Partial<Record<Language, string>> = {};
  for (const language of languages)
    pages[language] = await prerenderPage(template, path, language, readStyle, data);
  return pages;
}

/**
 * Every public page in every language, into dist/pages; answers how many. The pages are drawn
 * one after the other (i18next's language is global) and each is written while the next is
 * drawn; a stylesheet is read once for all the pages that carry it.
 */
export async function prerenderPages() {
  const { template, readStyle } = await builtShell();
  const writes: Promise<void>[] = [];
  try {
    for (const language of LANGUAGES)
      for (const path of PRERENDERED_PATHS) {
        const html = await prerenderPage(template, path, language, readStyle);
        const written = write(path, language, html);
        written.catch(() => {}); // answered below, once every page is drawn
        writes.push(written);
      }
  } finally {
    // A page that fails to draw stops the build once the files being written are complete.
    await Promise.allSettled(writes);
  }
  await Promise.all(writes);
  return writes.length;
}
