import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { AppError } from '../../lib/app-error.js';
import { findBrowserPid, RendererMemoryWatchdog } from './renderer-memory-watchdog.js';

export interface BrowserOptions {
  executablePath: string;
  args: string[];
  /** Resident memory one renderer process may reach before it is killed, in bytes. */
  rendererMemoryCap: number;
}

export interface LiveBrowser {
  browser: Browser;
  /** Watches the renderers' memory until the returned function is called. */
  watch: () => () => void;
}

/**
 * The one owner of the renderer's Chromium: it alone launches, tracks and closes it. Callers
 * asking at once share one launch; a browser is forgotten only by its own `disconnected`
 * handler or by `retire`, and either does so only while that browser is still the current one,
 * so a browser closed earlier can never clear (and leak) its successor.
 */
export class BrowserOwner {
  private current: Promise<LiveBrowser> | null = null;
  /** The current browser once launched: what `isCurrent` and `retire` compare against. */
  private live: LiveBrowser | null = null;
  private closed = false;

  constructor(private readonly options: BrowserOptions) {}

  /** The live browser, launched on first use (and after it died or was retired). */
  get(): Promise<LiveBrowser> {
    if (this.closed)
      return Promise.reject(new AppError(503, 'engine_unavailable', 'The renderer is shut down'));
    this.current ??= this.launch();
    return this.current;
  }

  private launch(): Promise<LiveBrowser> {
    // Marks this launch's browser process, so its memory watchdog finds it among others (the
    // rest of the environment is what Playwright would pass anyway).
    const id = randomUUID();
    // Loaded on the first render, not at start: playwright-core adds about 70 MB to a process's
    // memory, and most processes (workers, a server nobody asks for HTML) never render.
    const launching: Promise<LiveBrowser> = import('playwright-core')
      .then(({ chromium }) =>
        chromium.launch({
          executablePath: this.options.executablePath,
          // Chromium refuses to sandbox as root; everywhere else its sandbox stays on.
          chromiumSandbox: process.getuid?.() !== 0,
          args: this.options.args,
          env: { ...process.env, REFRACT_BROWSER: id },
        }),
      )
      .then((browser) => {
        const pid = findBrowserPid(`REFRACT_BROWSER=${id}`);
        const watchdog = pid
          ? new RendererMemoryWatchdog(pid, this.options.rendererMemoryCap)
          : null;
        const live = { browser, watch: () => watchdog?.watch() ?? (() => undefined) };
        browser.on('disconnected', () => {
          watchdog?.stop();
          if (this.current === launching) this.forget();
        });
        if (this.current === launching) this.live = live;
        return live;
      })
      .catch((err: unknown) => {
        if (this.current === launching) this.forget();
        throw new AppError(
          503,
          'engine_unavailable',
          `Chromium could not be started: ${String(err).slice(0, 200)}`,
        );
      });
    return launching;
  }

  private forget(): void {
    this.current = null;
    this.live = null;
  }

  /** Whether `browser` is the current browser (a slot of an older one must not be reused). */
  isCurrent(browser: Browser): boolean {
    return this.live?.browser === browser;
  }

  /**
   * Closes `browser` when it is still the current one, so the next `get` launches afresh.
   * Several callers retiring the same browser close it once; a browser already replaced is
   * left alone.
   */
  async retire(browser: Browser): Promise<void> {
    if (!this.isCurrent(browser)) return;
    this.forget();
    await browser.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.forget();
    const live = await current?.catch(() => null);
    await live?.browser.close();
  }
}
