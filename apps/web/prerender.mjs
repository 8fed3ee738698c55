// The last step of the web build: writes the public pages as HTML (src/prerender, decision 036).
// React's production build: the development one (Node's default) draws the same HTML but takes
// twice the time, checking and recording each element as it goes. Set before React is loaded.
process.env.NODE_ENV = 'production';
const { prerenderPages } = await import('./dist-ssr/prerender-pages.js');

console.log(`prerendered ${await prerenderPages()} pages`);
