import { describe, expect, it } from 'vitest';
import { batchResultName, uniqueNames } from './batch-names.js';

describe('batch result names', () => {
  it('keeps the uploaded name with the new extension', () => {
    expect(batchResultName('IMG_1054.jpg', 'converted.webp')).toBe('IMG_1054.webp');
    expect(batchResultName('archive.tar.gz', 'compressed.jpg')).toBe('archive.tar.jpg');
    expect(batchResultName('README', 'rotated-image.png')).toBe('README.png');
  });

  it('keeps only the last path segment, cleaned like every download name', () => {
    expect(batchResultName('../../etc/pass\u0000wd.png', 'x.webp')).toBe('pass-wd.webp');
    expect(batchResultName('holiday photo (1).JPG', 'x-compressed.jpg')).toBe(
      'holiday-photo-1.JPG',
    );
    expect(batchResultName('C:\\photos\\a.png', 'x.webp')).toBe('a.webp');
    expect(batchResultName(null, 'converted.webp')).toBe('converted.webp');
    expect(batchResultName('.png', 'converted.webp')).toBe('converted.webp');
  });

  it('numbers duplicates, case-insensitively', () => {
    expect(uniqueNames(['a.webp', 'b.webp', 'A.webp', 'a.webp', 'a (2).webp'])).toEqual([
      'a.webp',
      'b.webp',
      'A (2).webp',
      'a (3).webp',
      'a (2) (2).webp',
    ]);
  });
});
