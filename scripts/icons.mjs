// The site's icons, drawn from its brand mark (public/favicon.svg) with sharp: the web app
// manifest's icons (app/site-files/home-screen.server.ts lists them), the apple-touch-icon and favicon.ico.
// scripts/build-site-files.mjs writes them at build time into gitignored files of public/.
import sharp from "sharp";

/**
 * Every PNG the build draws. `mark`: the round mark on a transparent square, as the favicon shows
 * it. `square`: the mark's background fills the whole square, for platforms that cut their own
 * shape (maskable icons) or fill transparency with black (iOS home screens).
 */
export const pngIcons = [
  { file: "public/icons/icon-192.png", size: 192, shape: "mark" },
  { file: "public/icons/icon-512.png", size: 512, shape: "mark" },
  { file: "public/icons/maskable-192.png", size: 192, shape: "square" },
  { file: "public/icons/maskable-512.png", size: 512, shape: "square" },
  { file: "public/apple-touch-icon.png", size: 180, shape: "square" },
];

/** favicon.ico: the sizes Windows, old browsers and feed readers pick from. */
export const favicon = { file: "public/favicon.ico", sizes: [16, 32, 48] };

/**
 * The mark drawn edge to edge: its round background (the one `<circle>`) becomes a square of the
 * same fill. The wave stays where it is, well inside the maskable safe zone (a circle of 80 % of
 * the width). A mark of another shape fails loudly rather than drawing a wrong icon.
 */
export function fullBleed(svg) {
  const circles = svg.match(/<circle\b[^>]*\/>/g) ?? [];
  if (circles.length !== 1)
    throw new Error(`the brand mark should have one <circle>, it has ${circles.length}`);
  const fill = /\bfill="([^"]+)"/.exec(circles[0])?.[1];
  if (!fill) throw new Error("the brand mark's <circle> has no fill");
  return svg.replace(circles[0], `<rect x="0" y="0" width="100%" height="100%" fill="${fill}"/>`);
}

/** A square PNG of the SVG at `size` pixels, rendered at that size rather than scaled from another. */
export async function renderPng(svg, size) {
  const source = Buffer.from(svg);
  const { width } = await sharp(source).metadata();
  if (!width) throw new Error("the brand mark has no width");
  return sharp(source, { density: (72 * size) / width })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/**
 * An ICO file holding PNG images (Windows Vista and later, every browser): a 6-byte header, one
 * 16-byte entry per image, then the PNGs as they are. Sizes are read from each PNG's IHDR.
 */
export function icoOf(pngs) {
  const headerBytes = 6;
  const entryBytes = 16;
  const header = Buffer.alloc(headerBytes + entryBytes * pngs.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach((png, index) => {
    if (png.readUInt32BE(12) !== 0x49484452) throw new Error("not a PNG (no IHDR)");
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    if (width > 256 || height > 256)
      throw new Error(`an icon image is at most 256 px, not ${width}×${height}`);
    const entry = headerBytes + entryBytes * index;
    header.writeUInt8(width === 256 ? 0 : width, entry); // 0 means 256
    header.writeUInt8(height === 256 ? 0 : height, entry + 1);
    header.writeUInt8(0, entry + 2); // colours in the palette: none
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs]);
}

/** Every icon file of the site from the brand mark's SVG text: `{file, bytes}`, paths relative to the repository. */
export async function drawIcons(markSvg) {
  const square = fullBleed(markSvg);
  const files = await Promise.all(
    pngIcons.map(async (icon) => ({
      file: icon.file,
      bytes: await renderPng(icon.shape === "square" ? square : markSvg, icon.size),
    })),
  );
  const faviconPngs = await Promise.all(favicon.sizes.map((size) => renderPng(markSvg, size)));
  files.push({ file: favicon.file, bytes: icoOf(faviconPngs) });
  return files;
}
