/**
 * In-place iterative radix-2 FFT. One plan per size: the twiddles and the bit-reversal order are
 * computed once, because the spectrogram calls it for every frame.
 */
export type FftPlan = {
  size: number;
  cos: Float64Array;
  sin: Float64Array;
  reversed: Uint32Array;
};

export function createFftPlan(size: number): FftPlan {
  if (!Number.isInteger(size) || size < 2 || (size & (size - 1)) !== 0) {
    throw new RangeError(`FFT size must be a power of two, got ${size}`);
  }
  const half = size / 2;
  const cos = new Float64Array(half);
  const sin = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    cos[i] = Math.cos((2 * Math.PI * i) / size);
    sin[i] = -Math.sin((2 * Math.PI * i) / size);
  }
  const bits = Math.log2(size);
  const reversed = new Uint32Array(size);
  for (let i = 0; i < size; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    reversed[i] = r;
  }
  return { size, cos, sin, reversed };
}

/** Forward transform of (re, im), both of the plan's size, in place. */
export function fft(plan: FftPlan, re: Float64Array, im: Float64Array): void {
  const { size, cos, sin, reversed } = plan;
  for (let i = 0; i < size; i++) {
    const j = reversed[i] as number;
    if (j > i) {
      const tr = re[i] as number;
      re[i] = re[j] as number;
      re[j] = tr;
      const ti = im[i] as number;
      im[i] = im[j] as number;
      im[j] = ti;
    }
  }
  // The first two stages have trivial twiddles (1 and -i): one radix-4 pass without products.
  if (size >= 4) {
    for (let a = 0; a < size; a += 4) {
      const r0 = re[a] as number;
      const i0 = im[a] as number;
      const r1 = re[a + 1] as number;
      const i1 = im[a + 1] as number;
      const r2 = re[a + 2] as number;
      const i2 = im[a + 2] as number;
      const r3 = re[a + 3] as number;
      const i3 = im[a + 3] as number;
      const sr01 = r0 + r1;
      const si01 = i0 + i1;
      const dr01 = r0 - r1;
      const di01 = i0 - i1;
      const sr23 = r2 + r3;
      const si23 = i2 + i3;
      const dr23 = r2 - r3;
      const di23 = i2 - i3;
      re[a] = sr01 + sr23;
      im[a] = si01 + si23;
      re[a + 2] = sr01 - sr23;
      im[a + 2] = si01 - si23;
      re[a + 1] = dr01 + di23;
      im[a + 1] = di01 - dr23;
      re[a + 3] = dr01 - di23;
      im[a + 3] = di01 + dr23;
    }
  } else {
    const r0 = re[0] as number;
    const i0 = im[0] as number;
    re[0] = r0 + (re[1] as number);
    im[0] = i0 + (im[1] as number);
    re[1] = r0 - (re[1] as number);
    im[1] = i0 - (im[1] as number);
  }
  for (let len = 8; len <= size; len <<= 1) {
    const halfLen = len >> 1;
    const step = size / len;
    for (let start = 0; start < size; start += len) {
      for (let k = 0, w = 0; k < halfLen; k++, w += step) {
        const wr = cos[w] as number;
        const wi = sin[w] as number;
        const a = start + k;
        const b = a + halfLen;
        const br = re[b] as number;
        const bi = im[b] as number;
        const xr = br * wr - bi * wi;
        const xi = br * wi + bi * wr;
        const ar = re[a] as number;
        const ai = im[a] as number;
        re[b] = ar - xr;
        im[b] = ai - xi;
        re[a] = ar + xr;
        im[a] = ai + xi;
      }
    }
  }
}

/** Inverse transform in place (scaled by 1/size), through the conjugate of the forward one. */
export function inverseFft(plan: FftPlan, re: Float64Array, im: Float64Array): void {
  for (let i = 0; i < plan.size; i++) im[i] = -(im[i] as number);
  fft(plan, re, im);
  const scale = 1 / plan.size;
  for (let i = 0; i < plan.size; i++) {
    re[i] = (re[i] as number) * scale;
    im[i] = -(im[i] as number) * scale;
  }
}
