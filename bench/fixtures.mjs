// Generated inputs, made once and cached in the temp dir: they are the same bytes every run
// (deterministic), and making them takes longer than some of the benchmarks.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const dir = join(tmpdir(), 'refract-bench-fixtures-v1');

/** The cached file `name`, made by `make(path)` the first time. */
async function cached(name, make) {
  const path = join(dir, name);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const partial = join(dir, `partial-${name}`);
    await make(partial);
    renameSync(partial, path); // A run stopped half way leaves no truncated fixture.
  }
  return path;
}

const ffmpeg = (args, out) =>
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);

/**
 * Photo `i` as a quality-90 JPEG: broad colour gradients, mid-frequency texture and grain.
 * Pure noise would compress far worse than a photo and flat colour far better; this lands
 * near a real 12 MP photo (a few MB). A seeded PRNG makes it the same every time.
 */
export function photo(i, width = 4000, height = 3000) {
  return cached(`photo-${width}x${height}-${i}.jpg`, async (path) => {
    let s = (i + 1) * 2654435761;
    const rand = () => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return (s >>> 0) / 4294967296;
    };
    // Separable fields keep generation fast: rows[y] + cols[x] + texture + grain.
    const wave = (n, channel) => {
      const [f, phase, amp, tf] = [
        1 + rand() * 4,
        rand() * 6.3,
        30 + rand() * 50,
        20 + rand() * 60,
      ];
      const smooth = new Float32Array(n);
      const texture = new Float32Array(n);
      for (let k = 0; k < n; k += 1) {
        smooth[k] = amp * Math.sin((k / n) * f * Math.PI + phase + channel);
        texture[k] = Math.sin((k / n) * tf * Math.PI * 2 + phase);
      }
      return { smooth, texture };
    };
    const pixels = Buffer.alloc(width * height * 3);
    for (let c = 0; c < 3; c += 1) {
      const rows = wave(height, c);
      const cols = wave(width, c);
      const base = 70 + rand() * 100;
      for (let y = 0; y < height; y += 1) {
        const [ry, ty] = [base + rows.smooth[y], 18 * rows.texture[y]];
        for (let x = 0, o = y * width * 3 + c; x < width; x += 1, o += 3) {
          const grain = (rand() - 0.5) * 24;
          // A Buffer wraps out-of-range values; clamp so bright areas do not turn dark.
          pixels[o] = Math.max(
            0,
            Math.min(255, ry + cols.smooth[x] + ty * cols.texture[x] + grain),
          );
        }
      }
    }
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toFile(path);
  });
}

/** A stereo 44.1 kHz WAV of a chord with some noise, `seconds` long. */
export const wav = (seconds) =>
  cached(`tone-${seconds}s.wav`, (path) =>
    ffmpeg(
      [
        ...['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds}`],
        ...['-f', 'lavfi', '-i', `sine=frequency=331:duration=${seconds}`],
        ...['-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.05:seed=1:duration=${seconds}`],
        ...['-filter_complex', 'amix=inputs=3', '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le'],
      ],
      path,
    ),
  );

/**
 * A camera-like h264 + aac clip: a moving test pattern with grain (so the encoder has real work),
 * at `bitrate` (a high one makes a large upload).
 */
export const clip = ({ size, seconds, bitrate }) =>
  cached(`clip-${size}-${seconds}s-${bitrate}.mp4`, (path) =>
    ffmpeg(
      [
        ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${seconds}`],
        ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
        ...['-vf', 'noise=alls=12:allf=t:all_seed=1', '-c:v', 'libx264', '-preset', 'veryfast'],
        ...['-b:v', bitrate, '-maxrate', bitrate, '-bufsize', bitrate, '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart'],
      ],
      path,
    ),
  );

/** A small PNG, for requests where the image work should be negligible. */
export const smallPng = () =>
  cached('small-64.png', (path) =>
    sharp({ create: { width: 64, height: 64, channels: 3, background: '#3b82f6' } })
      .png()
      .toFile(path),
  );
