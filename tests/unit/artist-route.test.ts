import { describe, expect, test } from "vitest";
import { adamIdRouteFeature, isAdamIdRouteOn, shortDescription } from "#app/artist/artist.server.ts";
import { resolveRequest } from "#edge/request-context.ts";
import type { ServicesProxy } from "#edge/services/index.ts";
import {
  type ArtistRoute,
  artistPath,
  featureConfigServicePath,
  parseArtistRoute,
} from "#rules/addresses.ts";
import { platformOf } from "#rules/user-agent.ts";

describe("parseArtistRoute (spec 001 §2 artist URLs)", () => {
  test.each<[string, string, string, boolean, ArtistRoute | undefined]>([
    ["/artist/-/{artistId}", "-", "698522010", true, { by: "artistId", id: "698522010" }],
    ["/artist/-/{artistId}, switch off", "-", "698522010", false, { by: "artistId", id: "698522010" }],
    ["/artist/{artistId}/{alias}", "698522010", "lupusmechanicus", true, { by: "artistId", id: "698522010" }],
    [
      "/artist/{artistId}/{alias}, switch off",
      "698522010",
      "lupusmechanicus",
      false,
      { by: "artistId", id: "698522010" },
    ],
    ["/artist/{alias}/{adamId}", "lupusmechanicus", "568583713", true, { by: "adamId", id: "568583713" }],
    ["/artist/{alias}/{adamId}, switch off", "lupusmechanicus", "568583713", false, undefined],
    ["two numbers: the artist id first", "698522010", "568583713", true, { by: "artistId", id: "698522010" }],
    ["/artist/-/{not a number}", "-", "lupusmechanicus", true, undefined],
    ["no number at all", "lupus", "mechanicus", true, undefined],
    ["a number too long", "1234567890123456", "x", true, undefined],
    ["a signed number", "-5", "x", true, undefined],
    ["a number with letters", "123abc", "x", true, undefined],
  ])("%s", (_name, first, second, adamIdRoute, expected) => {
    expect(parseArtistRoute(first, second, adamIdRoute)).toEqual(expected);
  });
});

test.each([
  [true, "/artist/lupusmechanicus/568583713"],
  [false, "/artist/698522010/lupusmechanicus"],
])("the canonical path with the switch %s is %s", (adamIdRoute, path) => {
  expect(
    artistPath({ shazamId: "698522010", adamid: "568583713", alias: "lupusmechanicus" }, adamIdRoute),
  ).toBe(path);
});

test("an alias is written as one path segment", () => {
  expect(artistPath({ shazamId: "1", adamid: "2", alias: "a/b c" }, true)).toBe("/artist/a%2Fb%20c/2");
});

test.each([
  ["short text stays", "A short bio.", 160, "A short bio."],
  ["spaces are folded", "A  bio\nwith\tspaces", 160, "A bio with spaces"],
  ["cut at a word", "one two three four five six", 14, "one two three…"],
  ["trailing punctuation goes", "one two, three four five", 10, "one two…"],
  ["one long word is cut inside", "abcdefghijklmnopqrstuvwxyz", 10, "abcdefghi…"],
])("shortDescription: %s", (_name, text, length, expected) => {
  const result = shortDescription(text, length);
  expect(result).toBe(expected);
  expect(result.length).toBeLessThanOrEqual(length);
});

test.each([
  [null, "web"],
  ["Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0", "web"],
  ["Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120.0 Mobile", "android"],
  ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1", "ios"],
  ["Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Safari/604.1", "ios"],
] as const)("the platform of %s is %s", (userAgent, platform) => {
  expect(platformOf(userAgent)).toBe(platform);
});

describe("isAdamIdRouteOn (the feature switch, evaluated for the visitor)", () => {
  const edge = resolveRequest(new Request("https://tunewave.test/artist/a/1?co=GB"), undefined, {
    newWebId: () => "web-1",
  });
  const options = { environment: "www", platform: "web" } as const;

  /** The services proxy answering the feature config with `answer` (or failing). */
  function servicesAnswering(answer: unknown): ServicesProxy {
    return {
      handle: () => Promise.reject(new Error("not used")),
      getJson: (path: string) =>
        path === featureConfigServicePath()
          ? answer instanceof Error
            ? Promise.reject(answer)
            : Promise.resolve(answer)
          : Promise.reject(new Error(`unexpected ${path}`)),
    } as ServicesProxy;
  }

  test.each<[string, unknown, boolean]>([
    [
      "on for everybody",
      { featureflags: { [adamIdRouteFeature]: { data: { enabled: true }, control: { rollout: 100 } } } },
      true,
    ],
    ["on without data", { featureflags: { [adamIdRouteFeature]: { data: true } } }, true],
    [
      "on but disabled in its data",
      { featureflags: { [adamIdRouteFeature]: { data: { enabled: false } } } },
      false,
    ],
    [
      "rolled out to nobody",
      { featureflags: { [adamIdRouteFeature]: { data: { enabled: true }, control: { rollout: 0 } } } },
      false,
    ],
    [
      "for another country",
      { featureflags: { [adamIdRouteFeature]: { data: { enabled: true }, control: { countries: ["FR"] } } } },
      false,
    ],
    [
      "for this country",
      { featureflags: { [adamIdRouteFeature]: { data: { enabled: true }, control: { countries: ["gb"] } } } },
      true,
    ],
    [
      "for another environment",
      { featureflags: { [adamIdRouteFeature]: { data: {}, control: { environments: ["dev"] } } } },
      false,
    ],
    ["absent", { featureflags: {} }, false],
    ["an unusable config", { flags: [] }, false],
    ["a failed load", new Error("timeout"), false],
  ])("%s", async (_name, answer, expected) => {
    await expect(
      isAdamIdRouteOn({ edge, services: servicesAnswering(answer), account: null }, options),
    ).resolves.toBe(expected);
  });

  const signedIn = {
    loggedin: true,
    authenticationType: "FIREBASE",
    method: "email",
    storage: "account",
    hasLibraryZone: false,
    email: "ana@example.com",
  } as const;
  test.each([
    ["signed in, for signed-in visitors", signedIn, true, true],
    ["anonymous, for signed-in visitors", null, true, false],
    ["signed in, for anonymous visitors", signedIn, false, false],
    ["anonymous, for anonymous visitors", null, false, true],
  ])("the loggedin condition: %s", async (_name, account, loggedin, expected) => {
    const answer = {
      featureflags: { [adamIdRouteFeature]: { data: { enabled: true }, control: { loggedin } } },
    };
    await expect(
      isAdamIdRouteOn({ edge, services: servicesAnswering(answer), account }, options),
    ).resolves.toBe(expected);
  });
});
