import { describe, expect, test } from "vitest";
import { assetFileOf, assetUrlOf, withEncodedAssetUrls } from "./asset-urls.mjs";

describe("an asset's URL as the assets server answers it", () => {
  test.each([
    [
      "/build/routes/($lang).track.$key.$alias-MHMAUIFN.js",
      "/build/routes/(%24lang).track.%24key.%24alias-MHMAUIFN.js",
    ],
    ["/build/routes/$-D.js", "/build/routes/%24-D.js"],
    ["/build/_shared/chunk-NNKCALLK.js", "/build/_shared/chunk-NNKCALLK.js"],
    ["/build/routes/(%24lang)._index-E.js", "/build/routes/(%24lang)._index-E.js"],
    ["/build/_assets/a b.css", "/build/_assets/a%20b.css"],
  ])("%s is asked for as %s, and is the file it names", (file, url) => {
    expect(assetUrlOf(file)).toBe(url);
    expect(assetUrlOf(url)).toBe(url);
    expect(assetFileOf(url)).toBe(file.replace("(%24lang)", "($lang)"));
  });

  test("a build's quoted /build/ paths are rewritten, nothing else", () => {
    const source =
      'var m={module:"/build/routes/($lang).track-X.js",imports:["/build/_shared/c-Y.js"]},p="/build/",q="/media/$x.jpg";';
    expect(withEncodedAssetUrls(source)).toBe(
      'var m={module:"/build/routes/(%24lang).track-X.js",imports:["/build/_shared/c-Y.js"]},p="/build/",q="/media/$x.jpg";',
    );
  });
});
