import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Writes a <meta> tag's content, creating the tag when index.html has none. */
function setMeta(attribute: 'name' | 'property', key: string, content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.append(tag);
  }
  tag.content = content;
}

/** The last page title and description drawn without a document (prerendering). */
export const prerenderedHead = { title: '', description: '' };

/**
 * Sets the document title to "<page> · Refract" and the description in the current language,
 * with the Open Graph tags a shared link shows. Without a description the app's own is used.
 */
export function usePageTitle(title: string, description?: string) {
  const { t } = useTranslation();
  const text = description ?? t('app.description');
  // Prerendered at build time (src/prerender) no effect runs: the page's head is written from this.
  if (typeof document === 'undefined')
    Object.assign(prerenderedHead, { title: `${title} · ${t('app.name')}`, description: text });
  useEffect(() => {
    const fullTitle = `${title} · ${t('app.name')}`;
    document.title = fullTitle;
    setMeta('name', 'description', text);
    setMeta('property', 'og:title', fullTitle);
    setMeta('property', 'og:description', text);
    setMeta('property', 'og:url', window.location.origin + window.location.pathname);
  }, [title, text, t]);
}
