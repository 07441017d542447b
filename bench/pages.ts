import * as v from "valibot";
import { outboxSchema } from "#rules/account.ts";
import { playlistTracksDocumentSchema } from "#rules/schemas/amapi.ts";
import { chartLocationsSchema } from "#rules/schemas/charts.ts";

/** The pages the bench measures: the list, each a real address of the running site. */
export const pageNames = [
  "home",
  "track",
  "artist",
  "charts",
  "search",
  "amp-track",
  "library",
  "privacy",
  "concerts",
  "event",
  "terms",
  "offer",
] as const;
export type PageName = (typeof pageNames)[number];

/**
 * A page as the bench found it. `missing`: the site answers 404 (the page is not built yet), so it
 * is not measured; `error`: any other answer but 200.
 */
export type Page = {
  name: PageName;
  /** The address asked for first. */
  requested: string;
  /** The address measured: `requested` after the site's own redirects. */
  path: string;
  state: "ok" | "missing" | "error";
  status: number;
  /** A signed-in person's page: the session cookie every request for it carries. */
  cookie?: string;
};

/** What a first visit sends (a browser, no cookies yet): the bench asks every page with these. */
export const visitorHeaders = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9",
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36",
} as const;

/** What a request for `page` sends: a first visit's headers, and its session cookie if it has one. */
export function headersOf(page: Pick<Page, "cookie">): Record<string, string> {
  return page.cookie ? { ...visitorHeaders, cookie: page.cookie } : { ...visitorHeaders };
}

const maxRedirects = 5;
/** Spec 001 §7: "page size … 200 for top, discovery and world". */
const worldChartSize = 200;

async function getJson<S extends v.GenericSchema>(base: string, path: string, schema: S) {
  const response = await fetch(base + path);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return v.parse(schema, await response.json());
}

/** Follows the site's own redirects (same origin only) to the address a visitor ends up on. */
export async function settle(
  base: string,
  name: PageName,
  requested: string,
  cookie?: string,
): Promise<Page> {
  let path = requested;
  const at = (state: Page["state"], status: number): Page => ({
    name,
    requested,
    path,
    state,
    status,
    ...(cookie ? { cookie } : {}),
  });
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const response = await fetch(base + path, { headers: headersOf({ cookie }), redirect: "manual" });
    await response.arrayBuffer();
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, base + path);
      if (next.origin !== base) return at("error", response.status);
      path = next.pathname + next.search;
      continue;
    }
    return at(
      response.status === 200 ? "ok" : response.status === 404 ? "missing" : "error",
      response.status,
    );
  }
  return at("error", 310);
}

/** The first artist link of a rendered page, if it has one. */
export function firstArtistLink(html: string): string | undefined {
  const match = /href="(\/artist\/[^"#]+)[^"]*"/.exec(html);
  return match?.[1]?.replaceAll("&amp;", "&");
}

/**
 * Real ids from the catalogue: the world chart (from `/services/charts/locations`) gives the chart
 * page, its list (also the proxy bench's path) and its first song the track page; the track page's artist link gives the artist page (its
 * shape depends on a feature switch), and the song's artist name is the search term.
 */
export async function findPages(base: string): Promise<{ pages: Page[]; chartListPath: string }> {
  const locations = await getJson(base, "/services/charts/locations", chartLocationsSchema);
  const storefront = locations.countries[0]?.id;
  if (!storefront) throw new Error("/services/charts/locations lists no country");
  const chartListPath = `/services/amapi/v1/catalog/${storefront}/playlists/${encodeURIComponent(locations.global.listid)}/tracks?limit=${worldChartSize}&relate[songs]=artists`;
  const chart = await getJson(base, chartListPath, playlistTracksDocumentSchema);
  const song = chart.data[0];
  if (!song) throw new Error(`the chart ${locations.global.listid} is empty`);
  const { shazamKey, alias, artistName } = song.attributes;
  const trackPath = `/track/${encodeURIComponent(shazamKey)}/${encodeURIComponent(alias)}`;

  const track = await settle(base, "track", trackPath);
  let artistPath = `/artist/-/${song.relationships?.artists?.data[0]?.id ?? ""}`;
  if (track.state === "ok") {
    const html = await (await fetch(base + track.path, { headers: visitorHeaders })).text();
    artistPath = firstArtistLink(html) ?? artistPath;
  }
  // A signed-in person with 20 songs: the library and the privacy download page, as they see them.
  const cookie = await signedInVisitor(
    base,
    chart.data.slice(0, 20).map((entry) => entry.attributes.shazamKey),
  );
  // The concert list, and the first concert on it.
  const concerts = await settle(base, "concerts", "/concerts");
  let eventPath = "/event/0";
  if (concerts.state === "ok") {
    const html = await (await fetch(base + concerts.path, { headers: visitorHeaders })).text();
    eventPath = /href="(\/event\/[^"#?]+)"/.exec(html)?.[1] ?? eventPath;
  }
  const pages = await Promise.all([
    settle(base, "home", "/"),
    track,
    settle(base, "artist", artistPath),
    settle(base, "charts", `/top-200/${encodeURIComponent(locations.global.urlName)}`),
    settle(base, "search", `/search?term=${encodeURIComponent(artistName)}`),
    settle(base, "amp-track", `/amp${trackPath}`),
    settle(base, "library", "/myshazam", cookie),
    settle(base, "privacy", "/privacy/download", cookie),
    concerts,
    settle(base, "event", eventPath),
    settle(base, "terms", "/terms"),
    // An offer as a visitor who is not signed in first sees it.
    settle(base, "offer", "/campaign/first-month"),
  ]);
  return { pages, chartListPath };
}

/**
 * A signed-in person with a library of `trackKeys` (newest first: the first key): signed in the
 * way a person is (the e-mail link from the local outbox), so the signed-in pages are measured as
 * they are served. Their session cookie.
 */
export async function signedInVisitor(base: string, trackKeys: readonly string[]): Promise<string> {
  const email = `bench.${Date.now()}@example.com`;
  const asked = await fetch(`${base}/services/account/login/email`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": visitorHeaders["user-agent"] },
    body: JSON.stringify({
      email,
      callback: `${base}/validate-email/web`,
      locale: "en-US",
      userAgent: "",
      inid: "",
    }),
  });
  const device = asked.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("tw_device="))
    ?.split(";")[0];
  if (asked.status !== 202 || !device) throw new Error(`sign-in link request: ${asked.status}`);
  const outbox = v.parse(outboxSchema, await (await fetch(`${base}/services/account/outbox`)).json());
  const link = /https?:\/\/\S+/.exec(outbox.mails.find((mail) => mail.to === email)?.text ?? "")?.[0];
  if (!link)
    throw new Error(`no sign-in mail for ${email} in the outbox (is a real mail transport configured?)`);
  const landed = await fetch(link, { headers: { ...visitorHeaders, cookie: device }, redirect: "manual" });
  const session = landed.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("tw_session="))
    ?.split(";")[0];
  if (!session) throw new Error(`the sign-in link answered ${landed.status} without a session`);
  const cookie = `${device}; ${session}`;
  const now = Date.now();
  for (const [index, trackKey] of [...trackKeys].reverse().entries()) {
    const tagged = await fetch(`${base}/services/account/tags`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({
        trackKey,
        recognitionId: `bench-${index}`,
        tagTime: now - (trackKeys.length - index) * 60_000,
      }),
    });
    if (!tagged.ok) throw new Error(`tagging ${trackKey}: ${tagged.status}`);
  }
  return cookie;
}
