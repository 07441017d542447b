import "#tests/all-languages.ts";
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, test } from "vitest";
import { serverStrings } from "#app/shell/i18n.server.ts";
import { featureNames } from "#rules/feature-names.ts";

/**
 * Every served flag gates what its name says, on the page where the server reads it. The config
 * turns each flag on in Germany only; the same page asked from Britain has it off. (`netlog` is
 * read in the browser: app/shell/browser/netlog.test.ts; `artistadamidroute`: tests/unit/artist-route.test.ts
 * and tests/worker/artist-page.test.ts.)
 */
const site = "https://tunewave.test";
const desktop =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const { t } = serverStrings("en");

beforeAll(async () => {
  const onInGermany = { data: { enabled: true }, control: { countries: ["DE"] } };
  const config = {
    featureflags: Object.fromEntries(Object.values(featureNames).map((name) => [name, onInGermany])),
  };
  // The services proxy keeps the config for minutes: it is set before this file's first request.
  await env.DB.prepare("UPDATE feature_config SET config = ? WHERE app = ''")
    .bind(JSON.stringify(config))
    .run();
});

async function page(path: string, country: string): Promise<string> {
  const response = await SELF.fetch(`${site}${path}`, {
    headers: { "user-agent": desktop },
    redirect: "manual",
    cf: { country },
  });
  expect(response.status, path).toBe(200);
  return response.text();
}

async function trackWithLyrics(): Promise<{ path: string; syncQuery: string }> {
  const row = await env.DB.prepare(
    `SELECT t.key, t.alias, t.duration_ms FROM tracks t WHERE t.key IN (SELECT track_key FROM lyrics)
     ORDER BY t.key LIMIT 1`,
  ).first<{ key: number; alias: string; duration_ms: number }>();
  if (!row) throw new Error("the catalogue has no track with lyrics");
  return {
    path: `/track/${row.key}/${row.alias}`,
    syncQuery: `startDate=${Date.now()}&offsetInMilliseconds=60000&trackLength=${row.duration_ms}&timeSkew=0`,
  };
}

const gates: {
  flag: string;
  path: () => Promise<string>;
  /** What the page shows while the flag is on, and not while it is off. */
  shows: string;
  /** The part of the page to look in, when not the whole of it. */
  within?: RegExp;
  /** What it shows instead when off, if anything. */
  instead?: string;
}[] = [
  { flag: featureNames.search, path: async () => "/", shows: 'class="search-box site-header__search"' },
  {
    flag: featureNames.syncedLyrics,
    path: async () => {
      const track = await trackWithLyrics();
      return `${track.path}?${track.syncQuery}`;
    },
    shows: 'class="synced-lyrics"',
    instead: 'class="track-lyrics__text"',
  },
  {
    flag: featureNames.webrec,
    path: async () => "/identify",
    shows: 'class="recognition__button"',
    instead: `<p class="recognition__note">${t("common:error.unsupported")}</p>`,
  },
  {
    flag: featureNames.myLibrarySunset,
    path: async () => "/myshazam",
    shows: `<p class="library__notice">${t("library:removalNotice")}</p>`,
  },
  {
    flag: featureNames.chartsGenreTabs,
    path: async () => "/top-200/world",
    shows: 'href="/genre/world/',
    within: /<nav class="chart-tabs".*?<\/nav>/s,
  },
];

describe("each served flag, turned off, takes away what its name says", () => {
  test.each(gates)("$flag: $shows", async ({ path, shows, within, instead }) => {
    const address = await path();
    const part = (html: string) => (within ? (html.match(within)?.[0] ?? "") : html);
    const on = await page(address, "DE");
    const off = await page(address, "GB");
    expect(part(on)).toContain(shows);
    expect(part(off)).not.toContain(shows);
    if (instead) expect(off).toContain(instead);
  });
});
