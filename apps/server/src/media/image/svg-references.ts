/**
 * Finds every place an SVG can name another resource, as librsvg would read it: the text is
 * seen after XML's character references are decoded (`u&#114;l(` is `url(`), and its CSS after
 * CSS escapes are decoded (`u\72l(`, `\75 rl(`, `\000075rl(`), with its comments and without
 * them (so a comment between the letters of `url(` is refused too: the scan errs on the side of
 * refusing).
 */

const XML_NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const fromCodePoint = (cp: number) =>
  cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';

/** Character references and the five predefined entities, decoded once, as the parser does. */
export function decodeXmlReferences(text: string): string {
  return text.replace(
    /&(?:#(\d{1,8})|#x([0-9a-f]{1,8})|(lt|gt|amp|quot|apos));/gi,
    (_, dec?: string, hex?: string, name?: string) =>
      name ? XML_NAMED[name.toLowerCase()]! : fromCodePoint(parseInt(dec ?? hex!, dec ? 10 : 16)),
  );
}

/** CSS escapes decoded: `\` and 1 to 6 hex digits (and one space after them), or any other character. */
export function decodeCssEscapes(text: string): string {
  return text.replace(
    /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\r\n\f])|([\s\S]))/gi,
    (_, hex?: string, newline?: string, other?: string) =>
      hex ? fromCodePoint(parseInt(hex, 16)) : newline ? '' : other!,
  );
}

/** CSS comments removed, an unterminated one to the end. */
export const stripCssComments = (text: string) => text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');

/** A processing instruction other than the XML declaration, e.g. `<?xml-stylesheet href=…?>`. */
export const hasProcessingInstruction = (text: string) => /<\?(?!xml[\s?])/i.test(text);

/** Every href (but a link's), url(), src(), image-set() and @import in the SVG's text. */
export function svgReferences(text: string): string[] {
  const xml = decodeXmlReferences(text);
  const found: string[] = [];
  for (const m of xml.matchAll(/<(\w[\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    if (m[1]!.toLowerCase() === 'a') continue;
    for (const href of m[2]!.matchAll(/(?:^|\s)(?:[\w-]+:)?href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi))
      found.push(href[1] ?? href[2] ?? '');
  }
  const escaped = decodeCssEscapes(xml);
  // As CSS reads it, and with comments gone before or after the escapes are decoded.
  const views = [escaped, stripCssComments(escaped), decodeCssEscapes(stripCssComments(xml))];
  for (const css of views) {
    // No closing parenthesis needed: CSS ends an unclosed url() at the end of the text.
    for (const url of css.matchAll(/(?:url|src|image-set)\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))/gi))
      found.push(url[1] ?? url[2] ?? url[3] ?? '');
    if (/@import/i.test(css)) found.push('@import');
  }
  return found;
}
