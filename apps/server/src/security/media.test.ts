import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { animatedGif, hasFfmpeg, pngBytes } from '../test/image-fixtures.js';
import * as media from '../test/media-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Files that make ffmpeg open other files or addresses, if it is let. */
const concatScript = () => Buffer.from("ffconcat version 1.0\nfile '/etc/passwd'\nduration 1\n");
/** A session description: ffmpeg would open the RTP ports it names and wait for packets. */
const sdp = () =>
  Buffer.from(
    'v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=x\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n' +
      'm=audio 40000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n',
  );
/** A real AVI over 1 MB with the playlist's marker split across the scanner's 1 MB reads. */
const aviWithSplitMarker = () => {
  const avi = media.testVideo(1, '64x48', 'avi');
  const at = 1024 * 1024 - 3;
  // The JUNK chunk's 8-byte header, then padding, so that the marker starts at `at`.
  const padding = Buffer.alloc(at - avi.length - 8);
  const junk = Buffer.concat([
    Buffer.from('JUNK'),
    Buffer.alloc(4),
    padding,
    Buffer.from('#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n'),
  ]);
  junk.writeUInt32LE(junk.length - 8, 4);
  return Buffer.concat([avi, junk]);
};

describe.skipIf(!hasFfmpeg)('hostile audio and video', () => {
  let t: TestApp;
  let pngFile: Buffer;
  let gifFile: Buffer;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    pngFile = await pngBytes(64, 48);
    gifFile = animatedGif();
  });
  afterAll(() => t.close());

  it.each([
    ['an ffconcat script naming /etc/passwd', concatScript],
    ['an SDP file pointing at RTP ports', sdp],
    ['an AVI with a playlist split across 1 MB reads', aviWithSplitMarker],
    // The image demuxers read numbered file sequences: no image is taken as audio or video.
    ['an image, which ffmpeg would read with its image demuxer', () => pngFile],
    // ffmpeg has hundreds of demuxers; an animated GIF stands for those outside the list.
    ['a container outside the allow-list (an animated GIF)', () => gifFile],
  ])('refuses %s before a job is queued, charging nothing', async (_, make) => {
    const { token } = await registerUser(t.app);
    for (const [path, field] of [
      ['/api/audio/convertaudio', 'audio'],
      ['/api/video/convert-video', 'video'],
    ] as const) {
      const res = await postForm(t.app, path, { token, file: { field, content: make() } });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(415);
      expect(res.json().code).toBe('unsupported_media_type');
    }
    const stats = await t.app.inject({ url: '/api/user/stats', headers: bearer(token) });
    expect(stats.json().imagesProcessed).toBe(0);
    expect(leftIn(t.database.options.dataDir, 'jobs')).toEqual([]);
  });
});
