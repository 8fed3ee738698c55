import type { HtmlTagDescriptor, Plugin, Rollup } from 'vite';
import { TOOLS } from '../../packages/contracts/src/tools';

/**
 * main.tsx is a small first script that imports the app (`src/app/start.tsx`) on demand, so it
 * can start other downloads before the app has arrived. This plugin announces in index.html:
 *
 * - the app's script, the chunks it imports (module preloads) and their stylesheets (as
 *   `media="print"`, applied by main.tsx), so they download from the start instead of after
 *   the first script has run;
 * - for each tool page, the chunks and stylesheets it adds to the app (a JSON block,
 *   `#page-chunks`, data only), so main.tsx preloads those of the page the visitor arrived on
 *   beside the app's script instead of after its first render.
 *
 * Vite's own loader finds what is already announced and fetches nothing twice.
 */
export function appPreload(): Plugin {
  let base = '/';
  return {
    name: 'refract-app-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunks = new Map<string, Rollup.OutputChunk>();
        for (const output of Object.values(bundle ?? {}))
          if (output.type === 'chunk') chunks.set(output.fileName, output);
        // By its modules: the chunk also holds what the pages share, so it has no facade module.
        const app = [...chunks.values()].find((chunk) =>
          chunk.moduleIds.some((id) => id.endsWith('/src/app/start.tsx')),
        );
        if (!app) throw new Error('appPreload: no chunk holds src/app/start.tsx');
        const appFiles = closure(chunks, app.fileName, new Set());
        const pages = Object.fromEntries(
          TOOLS.map(({ id, route }) => {
            // A tool's page lives in features/tools/<its id in kebab case> (removeBackground:
            // remove-background); a tool that breaks the rule stops the build here.
            const folder = `/src/features/tools/${id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}/`;
            const page = app.dynamicImports.find((fileName) =>
              chunks.get(fileName)!.facadeModuleId?.includes(folder),
            );
            if (!page) throw new Error(`appPreload: no chunk for the tool page in ${folder}`);
            const files = closure(chunks, page, new Set(appFiles));
            return [route, [...files, ...stylesOf(chunks, files)].map((f) => `${base}${f}`)];
          }),
        );
        return [
          ...[...appFiles].map((fileName) => link('modulepreload', `${base}${fileName}`)),
          ...stylesOf(chunks, appFiles).map((fileName) =>
            link('stylesheet', `${base}${fileName}`, { media: 'print', 'data-app-styles': true }),
          ),
          {
            tag: 'script',
            attrs: { type: 'application/json', id: 'page-chunks' },
            children: JSON.stringify(pages),
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/** `fileName` and every chunk it imports, but entries (index.html loads them) and `known`. */
function closure(chunks: Map<string, Rollup.OutputChunk>, fileName: string, known: Set<string>) {
  const found = new Set<string>();
  const add = (name: string) => {
    if (chunks.get(name)!.isEntry || known.has(name) || found.has(name)) return;
    found.add(name);
    chunks.get(name)!.imports.forEach(add);
  };
  add(fileName);
  return found;
}

const stylesOf = (chunks: Map<string, Rollup.OutputChunk>, files: Set<string>) =>
  [...files].flatMap((fileName) => [...(chunks.get(fileName)!.viteMetadata?.importedCss ?? [])]);

const link = (rel: string, href: string, attrs = {}): HtmlTagDescriptor => ({
  tag: 'link',
  attrs: { rel, crossorigin: true, href, ...attrs },
  injectTo: 'head',
});
