// Image quality against a reference, as super-resolution papers measure it: on the luma (Y of
// BT.601, 16–235) with `shave` pixels cut from each border (a model's edges are padded guesses).

/** Y (BT.601, studio range) of raw RGB(A) pixels with `channels` per pixel, as floats. */
export function luma(data, channels) {
  const y = new Float64Array(data.length / channels);
  for (let i = 0; i < y.length; i += 1) {
    const [r, g, b] = [data[i * channels], data[i * channels + 1], data[i * channels + 2]];
    y[i] = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255;
  }
  return y;
}

const inner = (width, height, shave) => {
  const rows = [];
  for (let y = shave; y < height - shave; y += 1) rows.push(y);
  return { rows, from: shave, to: width - shave };
};

/** PSNR in dB of luma `b` against luma `a`, both `width`×`height`. */
export function psnr(a, b, width, height, shave) {
  const { rows, from, to } = inner(width, height, shave);
  let sum = 0;
  let n = 0;
  for (const y of rows)
    for (let x = from; x < to; x += 1) {
      const d = a[y * width + x] - b[y * width + x];
      sum += d * d;
      n += 1;
    }
  return 10 * Math.log10((255 * 255) / (sum / n));
}

/** Mean SSIM over 8×8 windows, every 4 pixels (Wang et al.'s constants). */
export function ssim(a, b, width, height, shave) {
  const [c1, c2] = [(0.01 * 255) ** 2, (0.03 * 255) ** 2];
  let total = 0;
  let windows = 0;
  for (let top = shave; top + 8 <= height - shave; top += 4)
    for (let left = shave; left + 8 <= width - shave; left += 4) {
      let [ma, mb, va, vb, cov] = [0, 0, 0, 0, 0];
      for (let y = top; y < top + 8; y += 1)
        for (let x = left; x < left + 8; x += 1) {
          ma += a[y * width + x];
          mb += b[y * width + x];
        }
      ma /= 64;
      mb /= 64;
      for (let y = top; y < top + 8; y += 1)
        for (let x = left; x < left + 8; x += 1) {
          const [da, db] = [a[y * width + x] - ma, b[y * width + x] - mb];
          va += da * da;
          vb += db * db;
          cov += da * db;
        }
      [va, vb, cov] = [va / 63, vb / 63, cov / 63];
      total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      windows += 1;
    }
  return total / windows;
}

/** Area averaging: each `factor`×`factor` block of RGB pixels becomes its mean. */
export function areaDownscale(data, width, height, channels, factor) {
  const [w, h] = [Math.floor(width / factor), Math.floor(height / factor)];
  const out = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y += 1)
    for (let x = 0; x < w; x += 1)
      for (let c = 0; c < 3; c += 1) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy += 1)
          for (let dx = 0; dx < factor; dx += 1)
            sum += data[((y * factor + dy) * width + x * factor + dx) * channels + c];
        out[(y * w + x) * 3 + c] = Math.round(sum / (factor * factor));
      }
  return { data: out, width: w, height: h };
}
