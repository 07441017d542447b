export type PngIcon = { file: string; size: number; shape: "mark" | "square" };
export const pngIcons: readonly PngIcon[];
export const favicon: { file: string; sizes: readonly number[] };
export function fullBleed(svg: string): string;
export function renderPng(svg: string, size: number): Promise<Buffer>;
export function icoOf(pngs: readonly Buffer[]): Buffer;
export function drawIcons(markSvg: string): Promise<{ file: string; bytes: Buffer }[]>;
