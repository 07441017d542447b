import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { favicon, fullBleed, icoOf, renderPng } from "#scripts/icons.mjs";

const brandMark = readFileSync(path.join(import.meta.dirname, "../../public/favicon.svg"), "utf8");

test("the full-bleed mark fills the square with the round mark's own background", () => {
  const square = fullBleed(brandMark);
  expect(square).not.toContain("<circle");
  expect(square).toContain('<rect x="0" y="0" width="100%" height="100%" fill="url(#g)"/>');
  expect(square).toContain("<path ");
  expect(() => fullBleed("<svg><path d='M0 0'/></svg>")).toThrow(/one <circle>/);
});

test("icons are drawn at their size: transparent corners for the mark, none for the square", async () => {
  const sharp = (await import("sharp")).default;
  const corner = async (png: Buffer) => {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    return { alpha: data[3], width: info.width, height: info.height };
  };
  expect(await corner(await renderPng(brandMark, 192))).toEqual({ alpha: 0, width: 192, height: 192 });
  expect(await corner(await renderPng(fullBleed(brandMark), 180))).toEqual({
    alpha: 255,
    width: 180,
    height: 180,
  });
});

test("favicon.ico is an ICO container of PNGs: header, one entry per image, the images", async () => {
  const pngs = await Promise.all(favicon.sizes.map((size) => renderPng(brandMark, size)));
  const ico = icoOf(pngs);
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
  let expectedOffset = 6 + 16 * 3;
  favicon.sizes.forEach((size, index) => {
    const entry = 6 + 16 * index;
    const png = pngs[index] as Buffer;
    expect([ico.readUInt8(entry), ico.readUInt8(entry + 1)]).toEqual([size, size]);
    expect(ico.readUInt16LE(entry + 4)).toBe(1);
    expect(ico.readUInt16LE(entry + 6)).toBe(32);
    expect(ico.readUInt32LE(entry + 8)).toBe(png.length);
    expect(ico.readUInt32LE(entry + 12)).toBe(expectedOffset);
    expect(ico.subarray(expectedOffset, expectedOffset + png.length).equals(png)).toBe(true);
    expectedOffset += png.length;
  });
  expect(ico.length).toBe(expectedOffset);
  expect(() => icoOf([Buffer.from("not a png at all, not at all")])).toThrow(/not a PNG/);
});
