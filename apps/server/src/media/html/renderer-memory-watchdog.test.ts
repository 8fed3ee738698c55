import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RendererMemoryWatchdog } from './renderer-memory-watchdog.js';

/**
 * Chromium's zygote forks a renderer that, for a moment, still carries the zygote's command
 * line before it renames itself `--type=renderer`. Stand-ins in Node do the same: a "zygote"
 * that forks a child with `--type=zygote` on its command line, which renames itself after
 * 600 ms (several of the watchdog's 100 ms rounds) and then fills 300 MB.
 */
const RENDERER = `setTimeout(() => {
  process.title = 'renderer --type=renderer';
  globalThis.keep = Buffer.alloc(300 * 1024 * 1024, 1);
  setTimeout(() => {}, 20000);
}, 600);`;
const ZYGOTE = `setTimeout(() => {
  const child = require('node:child_process').spawn(process.execPath,
    ['-e', process.env.RENDERER, '--', '--type=zygote', 'x'.repeat(64)], { stdio: 'ignore' });
  child.on('exit', (code, signal) => { console.log(String(signal)); process.exit(0); });
}, 300);`;

describe.skipIf(!existsSync('/proc/self/task'))('renderer memory watchdog', () => {
  it('kills a renderer over the cap even when it was first seen before it renamed itself', async () => {
    // Its own process group, as Playwright starts Chromium: the watchdog finds zygotes there.
    const zygote = spawn(process.execPath, ['-e', ZYGOTE, '--', '--type=zygote'], {
      detached: true,
      env: { ...process.env, RENDERER },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let said = '';
    zygote.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const watchdog = new RendererMemoryWatchdog(zygote.pid!, 100 * 1024 * 1024);
    const unwatch = watchdog.watch();
    try {
      const stopped = setTimeout(() => process.kill(-zygote.pid!, 'SIGKILL'), 15_000);
      await once(zygote, 'exit');
      clearTimeout(stopped);
      expect(said.trim()).toBe('SIGKILL');
    } finally {
      unwatch();
      try {
        process.kill(-zygote.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
});
