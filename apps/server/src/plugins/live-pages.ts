import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LANGUAGES, type Language } from '@refract/contracts';
import type { FastifyInstance } from 'fastify';
import { runWorkerTask } from '../media/worker-task.js';
import type { HtmlPage } from './prerendered-pages.js';

/**
 * Public pages whose first HTML shows what only the server knows: /plans shows the plans an
 * admin set and, in test mode, the test-mode banner. Prerendered at build time it held a
 * spinner and no banner, and jumped (layout shift 0.22) when they came. The server draws it
 * with its own answers to the page's queries, with the web build's own prerender (decision
 * 045), in a worker thread, so the event loop never renders React. The page carries the answers
 * (apps/web/src/lib/page-data.ts): the browser's first render hydrates it as it is.
 */
const LIVE_PATHS: readonly string[] = ['/plans'];
/** What the page's data depends on, so its pages are drawn again when it changes. */
type Version = (name: 'plans') => Promise<number | undefined>;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Runs in the worker: the web build's own drawing of a live page, in every language. */
const DRAW = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
process.env.NODE_ENV = 'production';
(async () => {
  try {
    const { drawLivePage } = await import(pathToFileURL(workerData.ssrModule).href);
    const pages = await drawLivePage(workerData.path, workerData.languages, workerData.data);
    parentPort.postMessage({ result: pages });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.stack) || err) });
  }
})();
`;

/** A drawn page as the server sends it; brotli at a quality that takes milliseconds. */
async function htmlPage(html: string): Promise<HtmlPage> {
  const brotli = { [constants.BROTLI_PARAM_QUALITY]: 9 };
  const [br, gzipped] = await Promise.all([
    brotliAsync(html, { params: brotli }),
    gzipAsync(html, { level: 9 }),
  ]);
  return { br, gzip: () => gzipped, identity: () => Buffer.from(html) };
}

/**
 * The live pages of a web build, or undefined when the build has no prerender module (only
 * the browser build copied, or none). A page is drawn on first request for each version of its
 * data, every language at once; until then, and if drawing fails, the build's page serves.
 */
export function livePages(app: FastifyInstance, webDistDir: string, version: Version) {
  const ssrModule = join(webDistDir, '..', 'dist-ssr', 'prerender-pages.js');
  if (!existsSync(ssrModule)) return undefined;
  type Drawn = { version: number | undefined; pages: Promise<Map<string, HtmlPage>> };
  /** Per address, the pages of the latest version asked for (a failed drawing included: it is
   * tried again for the next version, never for each request). */
  const drawn = new Map<string, Drawn>();

  const answer = async (url: string) => {
    const res = await app.inject({ url });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    return res.json() as unknown;
  };

  async function draw(path: string): Promise<Map<string, HtmlPage>> {
    const [plans, paymentMode] = await Promise.all([
      answer('/api/subscriptions/plans'),
      answer('/api/payments/mode'),
    ]);
    const html = await runWorkerTask<Record<string, string>>(
      DRAW,
      { ssrModule, path, languages: LANGUAGES, data: { plans, paymentMode } },
      // Hang guards: drawing seven pages takes about a second at rest.
      { timeoutMs: 120_000, heapMb: 512 },
    );
    const pages = new Map<string, HtmlPage>();
    for (const [language, page] of Object.entries(html))
      pages.set(`${language} ${path}`, await htmlPage(page));
    return pages;
  }

  return {
    /** The page at `address` in `language` as drawn now, or undefined when it is not live. */
    async page(language: Language, address: string): Promise<HtmlPage | undefined> {
      if (!LIVE_PATHS.includes(address)) return undefined;
      // The database gone: the build's page serves, as it would without live pages.
      const current = await version('plans').catch(() => null);
      if (current === null) return undefined;
      const latest = drawn.get(address);
      let pages = latest?.pages;
      if (!pages || latest?.version !== current) {
        pages = draw(address);
        pages.catch((err: unknown) =>
          app.log.warn({ err, address }, 'could not draw a live page: the built one serves'),
        );
        drawn.set(address, { version: current, pages });
      }
      return (await pages.catch(() => undefined))?.get(`${language} ${address}`);
    },
  };
}
