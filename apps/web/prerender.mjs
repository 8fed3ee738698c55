// The last step of the web build: writes the public pages as HTML (src/prerender, decision 0XX).
import { prerenderPages } from './dist-ssr/prerender-pages.js';

console.log(`prerendered ${await prerenderPages()} pages`);
