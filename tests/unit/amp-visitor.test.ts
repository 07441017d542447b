import { expect, test } from "vitest";
import { ampRequest } from "#amp/request.ts";
import { resolveRequest } from "#edge/request-context.ts";

const visitor = {
  "accept-language": "fr-FR,fr;q=0.9",
  cookie: "lang=ja; webid=5c2f0f56-2f43-4f0e-9a3b-3c1f1f1f1f1f; appconfig=%7B%22country%22%3A%22US%22%7D",
  "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)",
};

test.each([
  ["/amp", "en", "en-US", "GB"],
  ["/amp/de/track/1/a", "de", "de-DE", "GB"],
  ["/amp/track/1/a?lang=pt-BR", "pt-br", "pt-BR", "GB"],
  ["/amp/ja?co=fr", "ja", "ja-JP", "FR"],
  ["/amp/de?lang=ja&co=XX", "de", "de-DE", "GB"],
])("%s is read as language %s (%s) in country %s, whoever asks", (path, lang, locale, country) => {
  const request = new Request(`https://tunewave.test${path}`, { headers: visitor });
  // Resolved once (decision 031): the worker's resolution is already the AMP page's, not redone in amp/.
  const edge = resolveRequest(request, { country: "JP" });
  expect({ lang: edge.lang, locale: edge.locale, country: edge.country }).toEqual({ lang, locale, country });
  expect(edge).toMatchObject({
    inApp: false,
    webId: undefined,
    inid: undefined,
    beaconsSuppressed: true,
    newVisitor: true,
    setCookies: [],
  });
});

test("an install id in an AMP address is not the visitor's: the document is everyone's", () => {
  const request = new Request(
    "https://tunewave.test/amp/track/1/a?inid=0f8fad5b-d9cb-469f-a165-70867728950e",
    { headers: visitor },
  );
  expect(resolveRequest(request, undefined)).toMatchObject({ inid: undefined, setCookies: [] });
});

test("the request data functions see carries the URL and the method, none of the visitor's headers", () => {
  const request = ampRequest(new Request("https://tunewave.test/amp/track/1/a?x=1", { headers: visitor }));
  expect(request.url).toBe("https://tunewave.test/amp/track/1/a?x=1");
  expect(request.method).toBe("GET");
  expect([...request.headers.keys()]).toEqual([]);
});
