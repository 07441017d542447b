/**
 * Stylesheet texts by their built address (`/build/_assets/site-HASH.css`), read once per isolate
 * from the static assets: an address names one content for ever, so the copy never goes stale.
 * The AMP renderer inlines every stylesheet of a page; the React document inlines the site's own
 * (app/shell/stylesheets.tsx).
 */
const stylesheetCache = new Map<string, Promise<string>>();

export function stylesheetTexts(assets: Fetcher, hrefs: readonly string[]): Promise<string[]> {
  return Promise.all(
    [...new Set(hrefs)].map((href) => {
      let text = stylesheetCache.get(href);
      if (text === undefined) {
        text = assets.fetch(new URL(href, "https://assets.invalid")).then(async (response) => {
          if (!response.ok) throw new Error(`stylesheet ${href} answered ${response.status}`);
          return response.text();
        });
        text.catch(() => stylesheetCache.delete(href));
        stylesheetCache.set(href, text);
      }
      return text;
    }),
  );
}
