import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on one of our own modules, named by its built `.js` URL. The built
 * server runs the file as it is; run from source (the tests), only the `.ts` exists, and the
 * thread loads it through tsx (a development dependency) with the workspace's source exports.
 */
export function startModuleWorker(url: URL, options: WorkerOptions = {}): Worker {
  const built = fileURLToPath(url);
  const source = built.replace(/\.js$/, '.ts');
  if (existsSync(built) || !existsSync(source)) return new Worker(url, options);
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(
    pathToFileURL(source).href,
  )}, ${JSON.stringify(url.href)}))`;
  return new Worker(boot, {
    ...options,
    eval: true,
    execArgv: [...(options.execArgv ?? []), '--conditions=source'],
  });
}
