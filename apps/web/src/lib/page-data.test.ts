import { describe, expect, it } from 'vitest';
import { pageDataElement } from './page-data';

describe('page data in the HTML', () => {
  it('cannot be closed early by what an admin wrote in a plan', () => {
    const name = '</script><script>alert(1)</script><!--';
    const element = pageDataElement({ plans: [{ name } as never] });
    // One element, closed once, at its end; the name comes back whole from its JSON.
    expect(element.match(/<\/script/gi)).toHaveLength(1);
    expect(element).not.toContain('<!--');
    const json = element.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, '');
    expect(JSON.parse(json).plans[0].name).toBe(name);
  });
});
