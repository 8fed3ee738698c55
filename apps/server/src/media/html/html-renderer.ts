import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
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
const CONTENT_WAIT_MS = 2_000;
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

async function withinTimeLimit<T>(work: Promise<T>): Promise<T> {
  let timeout: NodeJS.Timeout | undefined;
  const timer = new Promise<never>((_, reject) => {
    timeout = setTimeout(() => reject(renderTimeout()), RENDER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timer]);
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * HTML to image in a sealed Chromium: one warm browser (relaunched if it dies), a small pool
 * of sealed contexts emptied between renders, every request except data: and blob: refused,
 * no popups, no downloads, and a hard time limit.
 */
interface Slot {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

export class HtmlRenderer {
  private browser: Promise<Browser> | null = null;
  /** Sealed contexts ready for the next render, reused for speed and emptied between renders. */
  private idle: Slot[] = [];
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
          this.idle = [];
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

  /**
   * Closes the browser after a render ran out of time (a renderer stuck in a loop does not
   * finish on its own); closing a launched browser ends its processes. The next render
   * relaunches it.
   */
  private async restart(): Promise<void> {
    const current = this.browser;
    this.browser = null;
    this.idle = [];
    const browser = await current?.catch(() => null);
    await browser?.close().catch(() => undefined);
  }

  /** A sealed context with one page: every request but data:/blob: refused, popups closed. */
  private async newSlot(): Promise<Slot> {
    const browser = await this.launch();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 100 },
      acceptDownloads: false,
      serviceWorkers: 'block',
      offline: true,
    });
    await context.route('**/*', (route) => {
      const intercepted = route.request();
      const url = intercepted.url();
      if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      // A navigation cancelled as "aborted" leaves the page where it is, without an error page
      // (meta refresh, location changes); anything else is refused without touching the network.
      if (intercepted.isNavigationRequest()) return route.abort('aborted');
      return route.abort('blockedbyclient');
    });
    context.on('page', (page) => {
      void page.opener().then((opener) => opener && page.close());
    });
    return { browser, context, page: await context.newPage() };
  }

  async render(request: RenderRequest): Promise<Buffer> {
    const release = await this.slot();
    let slot: Slot | undefined;
    try {
      slot = this.idle.pop() ?? (await this.newSlot());
      const image = await withinTimeLimit(this.screenshot(slot.page, request));
      // The page is reset for the next user while this image is on its way back (a fifth of a
      // warm render's time). The render slot stays taken until then, and the page goes back to
      // the pool only once reset, so no render ever starts on a used page.
      const used = slot;
      void this.recycle(used)
        .catch(() => used.context.close().catch(() => undefined))
        .finally(release);
      return image;
    } catch (err) {
      // A renderer stuck past the limit takes the browser down with it; otherwise only the page goes.
      if (err instanceof AppError && err.code === 'render_timeout') await this.restart();
      else await slot?.context.close().catch(() => undefined);
      release();
      if (err instanceof AppError) throw err;
      throw new AppError(422, 'processing_failed', 'This HTML could not be rendered');
    }
  }

  /**
   * Readies the page for the next render by navigating it to a fresh about:blank: a new
   * document and a new window, so no globals or DOM carry over (setContent alone keeps the
   * window). Content lives on about:blank, whose opaque origin can keep no cookies or storage.
   */
  private async recycle(slot: Slot): Promise<void> {
    const current = await this.browser?.catch(() => null);
    if (current !== slot.browser) return void (await slot.context.close().catch(() => undefined));
    await slot.page.goto('about:blank');
    this.idle.push(slot);
  }

  private async screenshot(page: Page, request: RenderRequest): Promise<Buffer> {
    // A full-page render without a height starts short, so the image is as tall as the content.
    await page.setViewportSize({
      width: request.width,
      height: request.height ?? (request.fullPage ? 100 : 800),
    });
    // A script that navigates away (held in place by the route above) leaves Playwright waiting
    // for a navigation that never comes; after a short wait the page is shot as it stands. A
    // script that never yields is caught by the render's own time limit instead.
    const settled = await page
      .setContent(request.html, { waitUntil: 'domcontentloaded', timeout: CONTENT_WAIT_MS })
      .then(
        () => true,
        (err: Error) => {
          if (err.name === 'TimeoutError') return false;
          throw err;
        },
      );
    // Images and fonts from data: URLs normally finish at once.
    if (settled)
      await page.waitForLoadState('load', { timeout: CONTENT_WAIT_MS }).catch(() => undefined);
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
    this.idle = [];
    await browser?.close();
  }
}
