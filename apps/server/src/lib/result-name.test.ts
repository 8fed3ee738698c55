import { describe, expect, it } from 'vitest';
import { contentDisposition, resultName } from './result-name.js';

describe('result names', () => {
  const png = ['png'];
  const jpeg = ['jpg', 'jpeg', 'jpe'];
  const rotated = { suffix: 'rotated', fallback: 'rotated-image' };

  it('names the result after the upload, with the result format extension', () => {
    expect(resultName('IMG_1054.jpg', { extensions: jpeg, ...rotated })).toBe(
      'IMG_1054-rotated.jpg',
    );
    expect(resultName('IMG_1054.jpg', { extensions: ['webp'], fallback: 'converted' })).toBe(
      'IMG_1054.webp',
    );
    expect(resultName('C:\\photos\\IMG.JPEG', { extensions: jpeg, ...rotated })).toBe(
      'IMG-rotated.JPEG',
    );
    expect(resultName('scan.bmp', { extensions: png, ...rotated })).toBe('scan-rotated.png');
  });

  it('keeps letters of any script and drops path parts and punctuation', () => {
    expect(resultName('été à Paris.png', { extensions: png, ...rotated })).toBe(
      'été-à-Paris-rotated.png',
    );
    expect(resultName('写真.jpg', { extensions: jpeg, ...rotated })).toBe('写真-rotated.jpg');
    expect(resultName('../../etc/passwd', { extensions: png, ...rotated })).toBe(
      'passwd-rotated.png',
    );
    expect(resultName('a"b;c\r\n.png', { extensions: png, ...rotated })).toBe('a-b-c-rotated.png');
  });

  it("falls back to the tool's fixed name when nothing of the upload's is left", () => {
    expect(resultName(undefined, { extensions: png, ...rotated })).toBe('rotated-image.png');
    expect(resultName('.jpg', { extensions: jpeg, ...rotated })).toBe('rotated-image.jpg');
    expect(resultName('---.jpg', { extensions: jpeg, ...rotated })).toBe('rotated-image.jpg');
  });

  it('sends an ASCII filename, and filename* in UTF-8 when the name has other characters', () => {
    expect(contentDisposition('IMG_1054-rotated.jpg')).toBe(
      'attachment; filename="IMG_1054-rotated.jpg"',
    );
    expect(contentDisposition('写真-rotated.jpg')).toBe(
      `attachment; filename="__-rotated.jpg"; filename*=UTF-8''%E5%86%99%E7%9C%9F-rotated.jpg`,
    );
    expect(contentDisposition('été.png')).toBe(
      `attachment; filename="ete.png"; filename*=UTF-8''%C3%A9t%C3%A9.png`,
    );
  });
});
