import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { AppError } from '../../lib/app-error.js';

export interface RenderRequest {
  html: string;
  width: number;
  height?: number;
  fullPage: boolean;
  format: 'png' | 'jpeg';
}

const RENDER_TIMEOUT_MS = 10_000;
const MAX_FULL_PAGE_HEIGHT = 16_000;
/** Two renders at once: one per core. More would only queue inside Chromium. */
const CONCURRENT_RENDERS = 2;

const ARGS = [
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-quic',
  '--no-first-run',
  // Belt and braces beside the request blocking below: no host name resolves at all.
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

const renderTimeout = () =>
  new AppError(
    504,
    'render_timeout',
    `Rendering took longer than ${RENDER_TIMEOUT_MS / 1000} seconds and was stopped`,
  );

/**
 * HTML to image in a sealed Chromium: one warm browser (relaunched if it dies), a fresh
 * context per render (nothing carries over between renders), every request except data: and
 * blob: refused, no popups, no downloads, and a hard time limit.
 */
export class HtmlRenderer {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly executablePath: string) {}

  private launch(): Promise<Browser> {
    this.browser ??= chromium
      .launch({
        executablePath: this.executablePath,
        // Chromium refuses to sandbox as root; everywhere else its sandbox stays on.
        chromiumSandbox: process.getuid?.() !== 0,
        args: ARGS,
      })
      .then((browser) => {
        browser.on('disconnected', () => {
          this.browser = null;
        });
        return browser;
      })
      .catch((err: unknown) => {
        this.browser = null;
        throw new AppError(
          503,
          'engine_unavailable',
          `Chromium could not be started: ${String(err).slice(0, 200)}`,
        );
      });
    return this.browser;
  }

  private async slot(): Promise<() => void> {
    if (this.active >= CONCURRENT_RENDERS)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    return () => {
      this.active -= 1;
      this.waiting.shift()?.();
    };
  }

  /** Kills the browser (a renderer stuck in a loop may not close politely); the next render relaunches it. */
  private async restart(): Promise<void> {
    const current = this.browser;
    this.browser = null;
    const browser = await current?.catch(() => null);
    await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 2000))]).catch(
      () => undefined,
    );
    const pid = (
      browser as unknown as { process?: () => { kill(signal: string): void } | null }
    )?.process?.();
    pid?.kill('SIGKILL');
  }

  async render(request: RenderRequest): Promise<Buffer> {
    const release = await this.slot();
    let context: BrowserContext | undefined;
    let timeout: NodeJS.Timeout | undefined;
    try {
      const browser = await this.launch();
      context = await browser.newContext({
        // A full-page render without a height starts short, so the image is as tall as the content.
        viewport: {
          width: request.width,
          height: request.height ?? (request.fullPage ? 100 : 800),
        },
        acceptDownloads: false,
        serviceWorkers: 'block',
        offline: true,
      });
      await context.route('**/*', (route) => {
        const intercepted = route.request();
        const url = intercepted.url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        // A navigation answered "204 No Content" leaves the page where it is (meta refresh,
        // location changes); anything else is refused without touching the network.
        if (intercepted.isNavigationRequest()) return route.fulfill({ status: 204 });
        return route.abort('blockedbyclient');
      });
      // A popup is closed as soon as it opens; it never loads anything (all requests are refused).
      context.on('page', (page) => {
        void page.opener().then((opener) => opener && page.close());
      });
      const work = this.screenshot(context, request);
      const timer = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(renderTimeout()), RENDER_TIMEOUT_MS);
      });
      return await Promise.race([work, timer]);
    } catch (err) {
      if (err instanceof AppError && err.code === 'render_timeout') {
        context = undefined;
        await this.restart();
      }
      if (err instanceof AppError) throw err;
      throw new AppError(422, 'processing_failed', 'This HTML could not be rendered');
    } finally {
      clearTimeout(timeout);
      await context?.close().catch(() => undefined);
      release();
    }
  }

  private async screenshot(context: BrowserContext, request: RenderRequest): Promise<Buffer> {
    const page = await context.newPage();
    await page.setContent(request.html, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
    const height = request.fullPage
      ? Math.min(
          MAX_FULL_PAGE_HEIGHT,
          Number(await page.evaluate('document.documentElement.scrollHeight')),
        )
      : (request.height ?? 800);
    return page.screenshot({
      type: request.format,
      clip: { x: 0, y: 0, width: request.width, height: Math.max(1, height) },
      fullPage: request.fullPage,
      timeout: RENDER_TIMEOUT_MS,
      ...(request.format === 'jpeg' ? { quality: 90 } : {}),
    });
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => null);
    this.browser = null;
    await browser?.close();
  }
}
