import { SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { searchResultsPageSize } from "#app/search/search-groups.ts";

const site = "https://tunewave.test";

async function page(path: string, init?: RequestInit) {
  const response = await SELF.fetch(`${site}${path}`, init);
  return { status: response.status, html: await response.text() };
}

/** Track rows of the songs list and artist rows, as the HTML has them. */
function rows(html: string) {
  return {
    songs: [...html.matchAll(/class="track-row__title"[^>]*href="([^"]+)"/g)].map((match) => match[1]),
    artists: [...html.matchAll(/class="search-artists__name"[^>]*href="([^"]+)"/g)].map((match) => match[1]),
  };
}

function linkWithRel(html: string, rel: "next" | "prev", group: "songs" | "artists"): string | undefined {
  const nav = new RegExp(`<nav class="search-page__pager" aria-label="Pages of ${group}">(.*?)</nav>`).exec(
    html,
  );
  const link = nav?.[1] ? new RegExp(`<a(?=[^>]*rel="${rel}")[^>]*href="([^"]+)"`).exec(nav[1]) : null;
  return link?.[1]?.replaceAll("&amp;", "&");
}

type SearchAnswer = {
  results: { songs?: { data: unknown[]; next?: string }; artists?: { data: unknown[]; next?: string } };
};

/** What the catalogue itself holds for a term, counted by following the origin's next links. */
async function catalogueCounts(term: string) {
  const counts = { songs: 0, artists: 0 };
  for (const type of ["songs", "artists"] as const) {
    let path: string | undefined =
      `/v1/catalog/gb/search?offset=0&term=${encodeURIComponent(term)}&types=${type}`;
    while (path) {
      const response = await SELF.fetch(`${site}/services/amapi${path}&limit=25`);
      const group: SearchAnswer["results"]["songs"] = ((await response.json()) as SearchAnswer).results[type];
      counts[type] += group?.data.length ?? 0;
      path = group?.next;
    }
  }
  return counts;
}

describe("the search page", () => {
  test("without a term: the empty state, a real GET form, indexable", async () => {
    const { status, html } = await page("/search");
    expect(status).toBe(200);
    expect(html).toContain('<h1 id="search-title">Search</h1>');
    expect(html).toContain("What are you looking for?");
    expect(html).toMatch(/<form method="get" action="\/search" class="search-page__form"/);
    expect(html).toMatch(/<input[^>]*id="search-page-term"[^>]*name="term"[^>]*value=""/);
    expect(html).not.toContain('name="robots"');
    expect(html).toContain("<title>Search | Tunewave</title>");
  });

  test("results: songs and artists from the catalogue, linked, with meta and noindex", async () => {
    const counts = await catalogueCounts("lupus");
    expect(counts.songs).toBeGreaterThan(searchResultsPageSize);
    const { status, html } = await page("/search?term=lupus");
    expect(status).toBe(200);
    expect(html).toContain("Results for “lupus”");
    expect(html).toContain("<title>“lupus”: search results | Tunewave</title>");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('<meta property="og:title" content="“lupus”: search results | Tunewave"/>');
    const found = rows(html);
    expect(found.songs).toHaveLength(searchResultsPageSize);
    for (const href of found.songs) expect(href).toMatch(/^\/track\/\d+\/[a-z0-9-]+$/);
    expect(found.artists).toHaveLength(counts.artists);
    for (const href of found.artists) expect(href).toMatch(/^\/artist\/[a-z0-9-]+\/\d+$/);
    // Images carry their size and a srcset.
    expect(html).toMatch(/<img class="track-row__cover" src="\/media\/art\/[^"]+" srcSet="[^"]+ 75w, [^"]+"/);
  });

  test("paging: next and previous links walk every song of the catalogue, the artists stay", async () => {
    const counts = await catalogueCounts("lupus");
    const seen: string[] = [];
    let path: string | undefined = "/search?term=lupus";
    let previous: string | undefined;
    let pages = 0;
    while (path) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      const found = rows(html);
      seen.push(...(found.songs as string[]));
      expect(found.artists, path).toHaveLength(counts.artists);
      expect(linkWithRel(html, "prev", "songs"), path).toBe(previous);
      previous = path;
      path = linkWithRel(html, "next", "songs");
      pages += 1;
      expect(pages).toBeLessThan(10);
    }
    expect(pages).toBe(Math.ceil(counts.songs / searchResultsPageSize));
    expect(new Set(seen).size).toBe(counts.songs);
  });

  test("paging links keep the term encoded and the other group's offset", async () => {
    const { html } = await page("/search?term=lupus&songs=10&artists=0");
    expect(linkWithRel(html, "next", "songs")).toBe("/search?term=lupus&songs=20");
    expect(linkWithRel(html, "prev", "songs")).toBe("/search?term=lupus");
    const spaced = await page("/search?term=the%20&songs=10");
    const next = linkWithRel(spaced.html, "next", "songs") ?? linkWithRel(spaced.html, "prev", "songs");
    expect(next).toMatch(/^\/search\?term=the&songs=\d+$/);
  });

  test("no results: the no-results state, status 200", async () => {
    const { status, html } = await page("/search?term=qqzzxxq");
    expect(status).toBe(200);
    expect(html).toContain("No results for “qqzzxxq”");
    expect(html).toContain("Check the spelling");
    expect(rows(html)).toEqual({ songs: [], artists: [] });
  });

  test("an offset past the end: no more songs, and a way back", async () => {
    const { status, html } = await page("/search?term=lupus&songs=990");
    expect(status).toBe(200);
    expect(html).toContain("No more songs for this search.");
    expect(linkWithRel(html, "prev", "songs")).toBe("/search?term=lupus&songs=980");
  });

  test("a group with nothing found says so, and 'no more' only past its first page", async () => {
    // Songs match "battle", no artist does: the artists' column has nothing, not nothing more.
    const counts = await catalogueCounts("battle");
    expect(counts.songs).toBeGreaterThan(0);
    expect(counts.artists).toBe(0);
    const first = await page("/search?term=battle");
    // The page's strings travel with it for the browser: what is said is what the markup shows.
    expect(first.html).toContain('<p class="muted">No artists for this search.</p>');
    expect(first.html).not.toContain('<p class="muted">No more artists');
    const past = await page("/search?term=lupus&songs=990");
    expect(past.html).toContain('<p class="muted">No more songs for this search.</p>');
    expect(past.html).not.toContain('<p class="muted">No songs for this search.');
  });

  test.each(["abc", "-3", "1e3", "99999999"])(
    "an offset %j that is not one reads as the first page",
    async (offset) => {
      const { status, html } = await page(`/search?term=lupus&songs=${encodeURIComponent(offset)}`);
      expect(status).toBe(200);
      expect(rows(html).songs).toHaveLength(searchResultsPageSize);
    },
  );

  test("a term longer than 100 characters: a localized message, status 400, never a 500", async () => {
    const long = "a".repeat(101);
    const { status, html } = await page(`/search?term=${long}`);
    expect(status).toBe(400);
    expect(html).toContain("A search can be at most 100 characters long.");
    expect(html).toContain('role="alert"');
    expect(html).toMatch(new RegExp(`value="${"a".repeat(100)}"`));
    expect(html).not.toContain('class="error-page"');
    const german = await page(`/de/search?term=${long}`);
    expect(german.status).toBe(400);
    expect(german.html).toContain("Eine Suche darf höchstens 100 Zeichen lang sein.");
  });

  test("a term of 100 characters after trimming is accepted", async () => {
    const { status } = await page(`/search?term=${encodeURIComponent(`   ${"b".repeat(100)}   `)}`);
    expect(status).toBe(200);
  });

  test.each([
    ['<script>alert("x")</script>', "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"],
    ['" autofocus onfocus="alert(1)', "&quot; autofocus onfocus=&quot;alert(1)"],
    ["</title><img src=x onerror=alert(1)>", "&lt;/title&gt;&lt;img src=x onerror=alert(1)&gt;"],
  ])("a hostile term %j is echoed escaped", async (term, escaped) => {
    const { status, html } = await page(`/search?term=${encodeURIComponent(term)}`);
    expect(status).toBe(200);
    expect(html).toContain(`value="${escaped}"`);
    expect(html).not.toContain(term);
    expect(html).not.toContain("<img src=x");
  });

  test("in another language: strings, links and the form action carry the prefix", async () => {
    const { status, html } = await page("/de/search?term=lupus");
    expect(status).toBe(200);
    expect(html).toContain("Ergebnisse für „lupus“");
    expect(html).toMatch(/<form method="get" action="\/de\/search" class="search-page__form"/);
    for (const href of rows(html).songs) expect(href).toMatch(/^\/de\/track\//);
    expect(html).toContain('href="/de/search?term=lupus&amp;songs=10"');
  });

  test("an unknown first segment is not a search page", async () => {
    expect((await page("/xx/search?term=a")).status).toBe(404);
  });
});

describe("the search box in the header", () => {
  test.each([
    ["/", "", "Search for songs and artists"],
    ["/search", "", "Search for songs and artists"],
    ["/de", "/de", "Nach Songs und Künstlern suchen"],
    ["/de/search", "/de", "Nach Songs und Künstlern suchen"],
  ])("%s: without JavaScript a GET form to the search page", async (path, prefix, placeholder) => {
    const response = await SELF.fetch(`${site}${path}`);
    const html = await response.text();
    expect(html).toMatch(
      new RegExp(
        `<form method="get" action="${prefix}/search" role="search" class="search-box site-header__search"`,
      ),
    );
    expect(html).toMatch(
      /<input[^>]*class="search-box__input"[^>]*type="search"[^>]*name="term"[^>]*maxLength="100"/,
    );
    expect(html).toContain(`placeholder="${placeholder}"`);
    // The combobox roles appear only once the script runs.
    expect(html).not.toContain('role="combobox"');
    expect(html).toContain('<button type="submit" class="search-box__submit">');
  });
});
