import { MAX_HTML_IMAGE_PIXELS, MAX_HTML_IMAGE_SIDE } from '@refract/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { BrowserOwner, type LiveBrowser } from './browser-owner.js';

export interface RenderRequest {
  html: string;
  width: number;
  height?: number;
  fullPage: boolean;
  scale: 1 | 2 | 3;
  format: 'png' | 'jpeg' | 'webp';
}

export const RENDER_TIMEOUT_MS = 10_000;
const CONTENT_WAIT_MS = 2_000;
/** V8 heap of one page, in MB: a script filling it crashes only its own renderer. */
const RENDER_HEAP_MB = 512;
/** Resident memory of one renderer process (heap, typed arrays, canvases, DOM, images). */
const RENDERER_MEMORY_CAP = 768 * 1024 * 1024;
/** A context that does not close within this is stuck beyond a page: the browser goes instead. */
const CLOSE_WAIT_MS = 5_000;

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
  `--js-flags=--max-old-space-size=${RENDER_HEAP_MB}`,
];

const renderTimeout = () =>
  new AppError(
    504,
    'render_timeout',
    `Rendering took longer than ${RENDER_TIMEOUT_MS / 1000} seconds and was stopped`,
  );

const renderTooLarge = () =>
  new AppError(
    422,
    'render_too_large',
    `This HTML needed more memory than a render may use (${RENDERER_MEMORY_CAP / 1024 / 1024} MB) and was stopped`,
  );

/** The tallest page, in CSS pixels, whose image stays within the side and pixel limits. */
export const maxCssHeight = (width: number, scale: number) =>
  Math.floor(
    Math.min(MAX_HTML_IMAGE_SIDE / scale, MAX_HTML_IMAGE_PIXELS / (width * scale * scale)),
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

interface Slot {
  live: LiveBrowser;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Device pixels per CSS pixel, fixed for a context's life. */
  scale: number;
  /** The page's renderer died: it ran out of heap, or the memory watchdog killed it. */
  crashed: boolean;
}

/** A render's image, and when its page has been reset for the next render. */
export interface Rendered {
  image: Buffer;
  reset: Promise<void>;
}

/**
 * HTML to image in a sealed Chromium: one warm browser (kept by its owner, relaunched if it
 * dies), a small pool of sealed contexts emptied between renders, every request except data:
 * and blob: refused, no popups, no downloads, a memory cap per page and a hard time limit that
 * ends only its own render. It runs in the render thread (render-thread.ts), never on the
 * server's event loop: Playwright decodes every screenshot from base64 JSON, which held the
 * loop for up to a second on a large image of noise.
 */
export class ChromiumPages {
  private readonly owner: BrowserOwner;
  /** Sealed contexts ready for the next render, reused for speed and emptied between renders. */
  private idle: Slot[] = [];

  constructor(executablePath: string) {
    this.owner = new BrowserOwner({
      executablePath,
      args: ARGS,
      rendererMemoryCap: RENDERER_MEMORY_CAP,
    });
  }

  /** A pooled context of the current browser, or a new one; those of a dead browser are dropped. */
  private async take(scale: number): Promise<Slot> {
    const live = this.idle.filter(
      (s) => this.owner.isCurrent(s.browser) && s.browser.isConnected(),
    );
    for (const dead of this.idle.filter((s) => !live.includes(s)))
      void dead.context.close().catch(() => undefined);
    const index = live.findIndex((s) => s.scale === scale);
    const [slot] = index >= 0 ? live.splice(index, 1) : [];
    this.idle = live;
    return slot ?? this.newSlot(scale);
  }

  /**
   * Ends one render's context, which ends its renderer process even in an endless loop, and
   * leaves every other render alone. Only a browser too stuck to close a context is retired.
   */
  private async discard(slot: Slot): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      slot.context.close().then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (!closed) await this.owner.retire(slot.browser);
  }

  /** A sealed context with one page: every request but data:/blob: refused, popups closed. */
  private async newSlot(scale: number): Promise<Slot> {
    const live = await this.owner.get();
    const context = await live.browser.newContext({
      viewport: { width: 1280, height: 100 },
      deviceScaleFactor: scale,
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
    const slot: Slot = {
      live,
      browser: live.browser,
      context,
      page: await context.newPage(),
      scale,
      crashed: false,
    };
    slot.page.on('crash', () => (slot.crashed = true));
    return slot;
  }

  /**
   * Renders one request on a free page. The image comes back at once; `reset` settles once the
   * page is ready for the next user (a fifth of a warm render's time), and only then does the
   * page go back to the pool, so no render ever starts on a used page.
   */
  async render(request: RenderRequest): Promise<Rendered> {
    let slot: Slot | undefined;
    let unwatch = () => {};
    try {
      slot = await this.take(request.scale);
      unwatch = slot.live.watch();
      const image = await withinTimeLimit(this.screenshot(slot.page, request));
      unwatch();
      const used = slot;
      const reset = this.recycle(used).catch(() => used.context.close().catch(() => undefined));
      return { image, reset };
    } catch (err) {
      unwatch();
      // Out of time, out of memory or broken: only this render's own context goes.
      if (slot) await this.discard(slot);
      if (slot?.crashed) throw renderTooLarge();
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
    if (!this.owner.isCurrent(slot.browser))
      return void (await slot.context.close().catch(() => undefined));
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
          maxCssHeight(request.width, request.scale),
          Number(await page.evaluate('document.documentElement.scrollHeight')),
        )
      : (request.height ?? 800);
    const shot = await page.screenshot({
      type: request.format === 'jpeg' ? 'jpeg' : 'png',
      clip: { x: 0, y: 0, width: request.width, height: Math.max(1, height) },
      fullPage: request.fullPage,
      timeout: RENDER_TIMEOUT_MS,
      ...(request.format === 'jpeg' ? { quality: 90 } : {}),
    });
    // Chromium writes only PNG and JPEG; libvips turns the PNG into WebP.
    return request.format === 'webp' ? sharp(shot).webp({ quality: 90 }).toBuffer() : shot;
  }

  async close(): Promise<void> {
    this.idle = [];
    await this.owner.close();
  }
}
