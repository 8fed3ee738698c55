/**
 * The download's name, after the upload's: `IMG_1054.jpg` → `IMG_1054-rotated.jpg` (or
 * `IMG_1054.webp` for a conversion). The client's name is untrusted text: only its last path
 * part is kept, reduced to letters and digits of any script, dots, dashes and underscores;
 * nothing left of it gives the tool's fixed name (`rotated-image.jpg`).
 */
export function resultName(
  original: string | undefined,
  {
    extensions,
    suffix,
    fallback,
  }: {
    /** The result format's extensions, preferred first (`['jpg', 'jpeg', 'jpe']`). */
    extensions: readonly string[];
    /** Appended to the stem after a dash (`rotated`, `1080x1080`); none for a conversion. */
    suffix?: string;
    /** The stem when the upload has no usable name (`rotated-image`). */
    fallback: string;
  },
): string {
  const base = (original ?? '').split(/[/\\]/).pop()!;
  const dot = base.lastIndexOf('.');
  const ownExtension = dot >= 0 ? base.slice(dot + 1) : '';
  const cleaned = (dot >= 0 ? base.slice(0, dot) : base)
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  // Cut by characters, not UTF-16 units, so no half of a surrogate pair is left.
  const stem = Array.from(cleaned).slice(0, 100).join('');
  // The name's own spelling of the extension (.JPEG, .jpg) when it is one of the format's.
  const extension = extensions.includes(ownExtension.toLowerCase()) ? ownExtension : extensions[0]!;
  if (!/[\p{L}\p{N}]/u.test(stem)) return `${fallback}.${extension}`;
  return `${stem}${suffix ? `-${suffix}` : ''}.${extension}`;
}

/** An ASCII stand-in for old clients: accents dropped, anything else non-ASCII an underscore. */
export function asciiName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]/g, '_');
}

/**
 * Content-Disposition for a download: `filename` in ASCII for every client, and RFC 6266's
 * `filename*` in UTF-8 when the name has other characters, so `写真-rotated.jpg` survives.
 */
export function contentDisposition(name: string): string {
  const ascii = asciiName(name);
  if (ascii === name) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
