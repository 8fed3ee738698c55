import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@refract/contracts';
import type { FastifyRequest } from 'fastify';

/** A page as built, with the compressed forms the build wrote beside it. */
export type HtmlPage = { br?: Buffer; gzip?: () => Buffer; identity: () => Buffer };

/** The web app's cookie naming the reader's language (apps/web/src/lib/i18n.ts). */
const LANGUAGE_COOKIE = 'refract.language';

export function readHtmlPage(path: string): HtmlPage {
  // Every browser takes brotli, so only it is held in memory; gzip and the plain page are
  // asked for rarely (curl, old proxies) and read when asked.
  const gzipPath = `${path}.gz`;
  return {
    br: existsSync(`${path}.br`) ? readFileSync(`${path}.br`) : undefined,
    gzip: existsSync(gzipPath) ? () => readFileSync(gzipPath) : undefined,
    identity: () => readFileSync(path),
  };
}

/**
 * The public pages prerendered at build time in every language (apps/web/src/prerender,
 * `dist/pages/<language>/<page>.html`), keyed `<language> <address>`. Their brotli forms are kept
 * in memory: about 2.9 MB for 20 pages in 7 languages, their styles included.
 */
export function readPrerenderedPages(webDistDir: string): Map<string, HtmlPage> {
  const pages = new Map<string, HtmlPage>();
  const root = join(webDistDir, 'pages');
  if (!existsSync(root)) return pages;
  for (const language of readdirSync(root)) {
    if (!isLanguage(language)) continue;
    for (const file of readdirSync(join(root, language), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.html')) continue;
      const name = file.slice(0, -'.html'.length);
      const address = name === 'index' ? '/' : `/${name}`;
      pages.set(`${language} ${address}`, readHtmlPage(join(root, language, file)));
    }
  }
  return pages;
}

/**
 * The reader's language as the web app will pick it (apps/web/src/lib/locale-chunks.ts): their
 * choice (the cookie the app sets beside its local storage), else the browser's first language
 * (what `navigator.language` is), else English. When the app picks otherwise (a choice stored
 * before the cookie existed), it renders afresh instead of hydrating.
 */
export function readerLanguage(request: FastifyRequest): Language {
  const cookie = String(request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  if (isLanguage(cookie)) return cookie;
  const browser = String(request.headers['accept-language'] ?? '')
    .trim()
    .slice(0, 2)
    .toLowerCase();
  return isLanguage(browser) ? browser : DEFAULT_LANGUAGE;
}
