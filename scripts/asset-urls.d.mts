export function assetUrlOf(urlPath: string): string;
export function assetFileOf(urlPath: string): string;
export function withEncodedAssetUrls(source: string): string;
