import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { artworkWidths, hash32, unitHash } from "#origin/catalog-rules.ts";
import { rgbToHex } from "#rules/content-rules.ts";
import type { AudioProfile } from "./audio";

const canvas = 800;

/** A colour drawn from the sound: low-heavy recordings are blue-violet, bright ones warm. */
export function colourOfProfile(profile: AudioProfile, seed: string): string {
  const hues = [255, 170, 30];
  let x = 0;
  let y = 0;
  profile.bands.forEach((share, i) => {
    const angle = ((hues[i] ?? 0) * Math.PI) / 180;
    x += share * Math.cos(angle);
    y += share * Math.sin(angle);
  });
  const hue = ((Math.atan2(y, x) * 180) / Math.PI + 360 + (unitHash(`hue:${seed}`) - 0.5) * 40) % 360;
  const saturation = 0.4 + 0.35 * Math.min(1, Math.max(0, (profile.dynamics - 1) / 3));
  const meanLevel = profile.envelope.reduce((s, e) => s + e, 0) / (profile.envelope.length || 1);
  const lightness = 0.3 + 0.25 * meanLevel;
  return hslToHex(hue, saturation, lightness);
}

export function hslToHex(h: number, s: number, l: number): string {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] =
    hp < 1
      ? [c, x, 0]
      : hp < 2
        ? [x, c, 0]
        : hp < 3
          ? [0, c, x]
          : hp < 4
            ? [0, x, c]
            : hp < 5
              ? [x, 0, c]
              : [c, 0, x];
  const m = l - c / 2;
  return rgbToHex([(r + m) * 255, (g + m) * 255, (b + m) * 255]);
}

function shade(hex: string, factor: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channels = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) =>
    factor < 1 ? c * factor : c + (255 - c) * (factor - 1),
  );
  return rgbToHex(channels as [number, number, number]);
}

/** Cover art for a recording without one: its loudness drawn as a ring of bars on its colour. */
export function recordingArtSvg(profile: AudioProfile, colour: string, seed: string): string {
  const centre = canvas / 2;
  const inner = 150 + 60 * (profile.bands[0] ?? 0);
  const reach = 160;
  const rotation = (hash32(seed) % 360) * (Math.PI / 180);
  const bars = profile.envelope
    .map((level, i) => {
      const angle = rotation + (i / profile.envelope.length) * Math.PI * 2;
      const r2 = inner + 12 + level * reach;
      const [x1, y1, x2, y2] = [inner, inner, r2, r2].map((r, j) =>
        (centre + r * (j % 2 === 0 ? Math.cos(angle) : Math.sin(angle))).toFixed(1),
      );
      return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
    })
    .join("");
  const rings = profile.bands
    .map(
      (share, i) =>
        `<circle cx="${centre}" cy="${centre}" r="${(40 + i * 40 + share * 60).toFixed(1)}" fill="none" stroke-opacity="${(0.25 + share * 0.6).toFixed(2)}"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas}" height="${canvas}" viewBox="0 0 ${canvas} ${canvas}">
<defs><radialGradient id="g" cx="50%" cy="45%" r="75%"><stop offset="0" stop-color="${shade(colour, 1.25)}"/><stop offset="1" stop-color="${shade(colour, 0.45)}"/></radialGradient></defs>
<rect width="${canvas}" height="${canvas}" fill="url(#g)"/>
<g stroke="${shade(colour, 1.8)}" stroke-width="9" stroke-linecap="round" stroke-opacity="0.85">${bars}</g>
<g stroke="#ffffff" stroke-width="3">${rings}</g>
</svg>`;
}

/** An artist avatar: overlapping discs in the colours of the artist's recordings. */
export function avatarSvg(colours: readonly string[], seed: string): string {
  const discs = Array.from({ length: 6 }, (_, i) => {
    const colour = colours[i % colours.length] ?? "#555555";
    const cx = 120 + unitHash(`${seed}:x${i}`) * 560;
    const cy = 120 + unitHash(`${seed}:y${i}`) * 560;
    const r = 110 + unitHash(`${seed}:r${i}`) * 170;
    return `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${shade(colour, 1.1 + i * 0.08)}" fill-opacity="0.7"/>`;
  }).join("");
  const base = shade(colours[0] ?? "#555555", 0.5);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas}" height="${canvas}"><rect width="${canvas}" height="${canvas}" fill="${base}"/>${discs}</svg>`;
}

/** A playlist cover: one band per track colour, with the first track's loudness across it. */
export function playlistArtSvg(colours: readonly string[], envelope: readonly number[]): string {
  const band = canvas / Math.max(1, colours.length);
  const stripes = colours
    .map(
      (c, i) =>
        `<rect x="0" y="${(i * band).toFixed(1)}" width="${canvas}" height="${(band + 1).toFixed(1)}" fill="${c}"/>`,
    )
    .join("");
  const step = canvas / Math.max(1, envelope.length);
  const wave = envelope
    .map(
      (level, i) =>
        `<rect x="${(i * step + step * 0.2).toFixed(1)}" y="${(canvas / 2 - level * 200).toFixed(1)}" width="${(step * 0.6).toFixed(1)}" height="${(level * 400 + 4).toFixed(1)}"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas}" height="${canvas}">${stripes}<g fill="#ffffff" fill-opacity="0.8">${wave}</g></svg>`;
}

/** Writes every size of a piece of artwork to public/media/art/{artId}/{w}x{w}.jpg. */
export async function writeArtwork(input: Buffer | string, mediaDir: string, artId: string): Promise<number> {
  const dir = path.join(mediaDir, "art", artId);
  fs.mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (const width of artworkWidths) {
    const out = await sharp(input).resize(width, width, { fit: "cover" }).jpeg({ quality: 84 }).toBuffer();
    fs.writeFileSync(path.join(dir, `${width}x${width}.jpg`), out);
    bytes += out.length;
  }
  return bytes;
}

/** The dominant colour of a cover image. */
export async function dominantColour(file: string): Promise<string> {
  const { dominant } = await sharp(file).stats();
  return rgbToHex([dominant.r, dominant.g, dominant.b]);
}
