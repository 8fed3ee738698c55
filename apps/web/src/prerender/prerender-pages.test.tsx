import { describe, expect, it } from 'vitest';
import { prerenderPage } from './prerender-pages';

/** index.html as the build writes it, in what prerendering changes (vite.config.ts, vite-app-preload.ts). */
const TEMPLATE = `<!doctype html>
<html lang="en" dir="ltr">
  <head>
    <meta name="description" content="The app." />
    <meta property="og:title" content="Refract" />
    <title>Refract</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-1.css" media="print" data-app-styles>
    <script type="application/json" id="page-chunks">{"/convert":["/assets/convert-page-1.js","/assets/convert-page-1.css"]}</script>
  </head>
  <body>
    <div id="root">
      <div style="height: 60px">Refract</div>
    </div>
  </body>
</html>`;

/** The built stylesheets, by address. */
const STYLES: Record<string, string> = {
  '/assets/index-1.css': 'body{margin:0}',
  '/assets/convert-page-1.css': '.drop{border:1px dashed}',
};
const readStyle = (href: string) => STYLES[href]!;

/** The text of the page's first-level heading, as it stands in the HTML. */
const heading = (html: string) =>
  html
    .match(/<h1[^>]*>(.*?)<\/h1>/s)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .replace(/<!-- -->/g, '');

describe('the public pages prerendered at build time', () => {
  it('hold their own content in the HTML, before any script has run', async () => {
    const pages = {
      '/': 'Every media tool you need, in one place',
      '/plans': 'Plans',
      '/terms-conditions': 'Terms and conditions',
      '/convert': 'Convert image',
    };
    for (const [path, title] of Object.entries(pages)) {
      const html = await prerenderPage(TEMPLATE, path, 'en', readStyle);
      expect(heading(html), path).toBe(title);
      expect(html, path).toContain('<div id="root" data-prerendered="en">');
      expect(html, path).not.toContain('<div style="height: 60px">Refract</div>'); // the shell
    }
  });

  it('are written in the reader’s language and direction, titled', async () => {
    const html = await prerenderPage(TEMPLATE, '/plans', 'ar', readStyle);
    expect(html).toContain('<html lang="ar" dir="rtl" data-mantine-color-scheme="light">');
    expect(heading(html)).toBe('الخطط');
    expect(html).toContain('<div id="root" data-prerendered="ar">');
    expect(html).toMatch(/<title>الخطط · Refract<\/title>/);
  });

  it('carry their stylesheets, a tool page’s own included, so the first paint is styled', async () => {
    const html = await prerenderPage(TEMPLATE, '/convert', 'en', readStyle);
    // In the HTML, the app's before the page's (drawn with Mantine's classes: no flash).
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(
      '<style>body{margin:0}</style>\n  <style>.drop{border:1px dashed}</style>',
    );
    // The links stay, never blocking, as the app's loader looks for them.
    expect(head).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/convert-page-1.css" media="print" data-app-styles>',
    );
    expect(head).not.toMatch(/<link rel="stylesheet"(?![^>]*media="print")/);
    // The page's own parts are in place: no inline script (the CSP forbids one).
    expect(html.match(/<script/g)).toHaveLength(2);
  });
});
