import { describe, expect, test } from "vitest";
import { atLeast, atMost, formatTable, kb } from "#bench/budgets.ts";
import { matchedRoutes, parseManifest, scriptsOf, splitByOwner, stylesheetsOf } from "#bench/bytes.ts";
import { firstArtistLink } from "#bench/pages.ts";
import { quantile } from "#bench/stats.ts";

function manifestSource(): string {
  const manifest = {
    entry: { module: "/build/entry.client-A.js", imports: ["/build/_shared/react-B.js"] },
    routes: {
      root: { id: "root", path: "", module: "/build/root-C.js", imports: ["/build/_shared/react-B.js"] },
      "routes/$": { id: "routes/$", parentId: "root", path: "*", module: "/build/routes/$-D.js" },
      "routes/($lang)._index": {
        id: "routes/($lang)._index",
        parentId: "root",
        path: ":lang?",
        index: true,
        module: "/build/routes/($lang)._index-E.js",
        imports: ["/build/_shared/list-F.js"],
      },
      "routes/($lang).track.$key.$alias": {
        id: "routes/($lang).track.$key.$alias",
        parentId: "root",
        path: ":lang?/track/:key/:alias",
        module: "/build/routes/($lang).track.$key.$alias-G.js",
        imports: ["/build/_shared/list-F.js", "/build/_shared/player-H.js"],
        css: ["/build/css-bundle-I.css"],
      },
    },
  };
  return `window.__remixManifest=${JSON.stringify(manifest)};`;
}

describe("first-visit files from the Remix manifest", () => {
  const manifest = parseManifest(manifestSource());

  test.each([
    ["/", ["root", "routes/($lang)._index"]],
    ["/de", ["root", "routes/($lang)._index"]],
    ["/track/1/song", ["root", "routes/($lang).track.$key.$alias"]],
    ["/de/track/1/song", ["root", "routes/($lang).track.$key.$alias"]],
    ["/no/such/page/here", ["root", "routes/$"]],
  ])("%s renders %j", (pathname, ids) => {
    expect(matchedRoutes(manifest, pathname).map((route) => route.id)).toEqual(ids);
  });

  test("scripts: the entry, then each route's module and imports, each once", () => {
    expect(scriptsOf(manifest, "/track/1/song")).toEqual([
      "/build/entry.client-A.js",
      "/build/_shared/react-B.js",
      "/build/root-C.js",
      "/build/routes/($lang).track.$key.$alias-G.js",
      "/build/_shared/list-F.js",
      "/build/_shared/player-H.js",
    ]);
  });

  test("stylesheets: the manifest's css, the page's own stylesheet links and inlined files, not preloads or other hosts", () => {
    const html = [
      '<style data-href="/build/_assets/search-L.css">.a{}</style>',
      '<link rel="stylesheet" href="/build/_assets/site-J.css"/>',
      '<link rel="preload" as="style" href="/build/_assets/later-K.css"/>',
      '<link rel="stylesheet" href="https://fonts.example/x.css"/>',
      '<link href="/build/css-bundle-I.css" rel="stylesheet"/>',
    ].join("");
    expect(stylesheetsOf(manifest, "/track/1/song", html)).toEqual([
      "/build/css-bundle-I.css",
      "/build/_assets/site-J.css",
      "/build/_assets/search-L.css",
    ]);
  });

  test("a file that is not a manifest is refused", () => {
    expect(() => parseManifest("window.__remixManifest={};")).toThrow();
  });
});

describe("framework floor and site code per chunk (the browser build's metafile)", () => {
  const metafile = {
    outputs: {
      "public/build/entry.client-A.js": { inputs: { "app/entry.client.tsx": { bytesInOutput: 300 } } },
      "public/build/_shared/react-B.js": {
        inputs: {
          "node_modules/react-dom/cjs/react-dom.production.min.js": { bytesInOutput: 9000 },
          "node_modules/@remix-run/router/dist/router.js": { bytesInOutput: 3000 },
          "app/ui/primitives.tsx": { bytesInOutput: 100 },
        },
      },
      "public/build/_shared/helpers-D.js": { inputs: {} },
      "public/build/root-C.js": {
        inputs: {
          "app/search/search-box.tsx": { bytesInOutput: 2000 },
          "node_modules/i18next/dist/esm/i18next.js": { bytesInOutput: 5000 },
          "node_modules/react/index.js": { bytesInOutput: 10 },
        },
      },
    },
  };
  const file = (url: string, gzipBytes: number) => ({ url, rawBytes: gzipBytes * 3, gzipBytes });

  test("a chunk is the framework's when most of its bytes are; owners largest first", () => {
    const split = splitByOwner(metafile, {
      files: 3,
      rawBytes: 0,
      gzipBytes: 0,
      each: [
        file("/build/_shared/react-B.js", 4000),
        file("/build/root-C.js", 2500),
        file("/build/entry.client-A.js", 200),
        file("/build/_shared/helpers-D.js", 100),
      ],
    });
    expect(split.framework).toBe(4300);
    expect(split.site).toBe(2500);
    expect(split.chunks.map((chunk) => [chunk.kind, chunk.owners])).toEqual([
      ["framework", ["react-dom", "@remix-run/router", "app/ui/primitives.tsx"]],
      ["site", ["i18next", "app/search/search-box.tsx", "react"]],
      ["framework", ["app/entry.client.tsx"]],
      // esbuild's module helpers: no source of their own.
      ["framework", []],
    ]);
  });

  test("a chunk the metafile does not hold means the build changed under the bench", () => {
    expect(() =>
      splitByOwner(metafile, { files: 1, rawBytes: 0, gzipBytes: 0, each: [file("/build/other-Z.js", 1)] }),
    ).toThrow(/metafile/);
  });
});

describe("verdicts", () => {
  test.each([
    [atMost, 30, 30, "PASS"],
    [atMost, 30.01, 30, "FAIL"],
    [atMost, Number.NaN, 30, "FAIL"],
    [atLeast, 0.25, 0.25, "PASS"],
    [atLeast, 0.249, 0.25, "FAIL"],
    [atLeast, Number.NaN, 98, "FAIL"],
  ] as const)("%o(%d, %d) is %s", (verdict, value, limit, expected) => {
    expect(verdict(value, limit)).toBe(expected);
  });

  test("sizes are in KB of 1000 bytes", () => {
    expect(kb(40_000)).toBe("40.00 KB");
    expect(kb(40_130)).toBe("40.13 KB");
    expect(kb(1_234_567)).toBe("1234.6 KB");
  });
});

describe("table", () => {
  test("columns line up under a header and a rule", () => {
    const table = formatTable([
      { area: "edge", item: "track", figure: "120 req/s", budget: "p99 ≤ 30 ms", verdict: "FAIL" },
      { area: "bytes", item: "worker script", figure: "493.6 KB gzip", budget: "", verdict: "info" },
    ]).split("\n");
    expect(table).toHaveLength(4);
    expect(table[0]?.startsWith("area ")).toBe(true);
    const verdictColumn = table[0]?.indexOf("verdict");
    expect(table[2]?.indexOf("FAIL")).toBe(verdictColumn);
    expect(table[3]?.indexOf("info")).toBe(verdictColumn);
  });
});

describe("helpers", () => {
  test.each([
    [[5, 1, 4, 2, 3], 0.5, 3],
    [[5, 1, 4, 2, 3], 0.99, 5],
    [[5, 1, 4, 2, 3], 0, 1],
    [Array.from({ length: 100 }, (_, i) => i + 1), 0.99, 99],
  ])("quantile(%j, %d) = %d", (values, q, expected) => {
    expect(quantile(values, q)).toBe(expected);
  });

  test("quantile of nothing is NaN", () => {
    expect(quantile([], 0.5)).toBeNaN();
  });

  test.each([
    [
      '<a href="/track/1/x">t</a><a href="/artist/doug-kaufman/153832252">Doug</a>',
      "/artist/doug-kaufman/153832252",
    ],
    ['<a href="/artist/a%20b/1?x=1#top">', "/artist/a%20b/1?x=1"],
    ['<a href="/track/1/x">', undefined],
  ])("firstArtistLink(%s)", (html, expected) => {
    expect(firstArtistLink(html)).toBe(expected);
  });
});
