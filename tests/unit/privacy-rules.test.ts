import "#tests/all-languages.ts";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { resources } from "#locales/index.ts";
import type { PersonData } from "#origin/privacy.ts";
import { archiveFiles, archiveOf } from "#origin/privacy-archive.ts";
import { formatDuration, formatPrivacyDate } from "#rules/privacy.ts";

// The privacy flows' pure rules: how a length of time reads, and what the data download's
// archive holds.

const minute = 60 * 1000;
const hour = 60 * minute;
const day = 24 * hour;

describe("formatDuration: the largest whole unit, worded by the language", () => {
  test.each([
    ["en-US", 7 * day, "7 days"],
    ["en-US", day, "1 day"],
    ["en-US", 30 * day, "30 days"],
    ["en-US", 15 * minute, "15 minutes"],
    ["en-US", 36 * hour, "36 hours"],
    ["en-US", 90 * minute, "90 minutes"],
    ["de-DE", 30 * day, "30 Tage"],
    ["de-DE", day, "1 Tag"],
    ["ru-RU", 7 * day, "7 дней"],
    ["ru-RU", day, "1 день"],
    ["ru-RU", 2 * day, "2 дня"],
    ["pl-PL", 2 * day, "2 dni"],
    ["ja-JP", 60 * day, "60 日"],
  ])("%s %i ms → %s", (locale, ms, words) => {
    expect(formatDuration(locale, ms)).toBe(words);
  });
});

test("formatPrivacyDate names UTC, whatever the machine's time zone", () => {
  expect(formatPrivacyDate("en-US", Date.UTC(2026, 6, 8, 21, 5))).toBe("July 8, 2026 at 09:05 PM UTC");
  expect(formatPrivacyDate("de-DE", Date.UTC(2026, 6, 8, 21, 5))).toBe("8. Juli 2026 um 21:05 UTC");
});

/** A person with one of each record, and cells a spreadsheet would run as formulas. */
function personData(overrides: Partial<PersonData> = {}): PersonData {
  return {
    account: { id: "user-1", email: "ana@example.com", createdAt: Date.UTC(2025, 0, 2) },
    sessions: [{ method: "email", createdAt: Date.UTC(2025, 0, 2), expiresAt: Date.UTC(2025, 1, 1) }],
    tags: [
      {
        id: "tag-1",
        recognitionId: "web:1",
        trackKey: 42,
        title: "=SUM(A1:A9)",
        artist: "+Artist, with a comma",
        tagTime: Date.UTC(2025, 0, 3),
        country: "GB",
        lat: 51.5,
        lng: -0.12,
        hiddenAt: null,
        createdAt: Date.UTC(2025, 0, 3),
      },
      {
        id: "tag-2",
        recognitionId: "-1",
        trackKey: 7,
        title: null,
        artist: null,
        tagTime: Date.UTC(2025, 0, 4),
        country: null,
        lat: null,
        lng: null,
        hiddenAt: Date.UTC(2025, 0, 5),
        createdAt: Date.UTC(2025, 0, 4),
      },
    ],
    signInRequests: [
      {
        createdAt: Date.UTC(2025, 0, 2),
        expiresAt: Date.UTC(2025, 0, 2, 0, 15),
        usedAt: null,
        locale: "de-DE",
        installId: "@inid",
      },
    ],
    dataExports: [],
    offerCodes: [],
    verificationRequests: [],
    streamingConnections: [],
    surveyAnswers: [],
    ...overrides,
  };
}

function unzip(archive: Uint8Array): Record<string, string> {
  return Object.fromEntries(
    Object.entries(unzipSync(archive)).map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
}

describe("the data download's archive", () => {
  test("one JSON file, one spreadsheet per kind of record and a README, and nothing else", async () => {
    const files = unzip(await archiveOf(personData(), "en-US", Date.UTC(2025, 5, 1)));
    expect(Object.keys(files).sort()).toEqual([...archiveFiles].sort());
    const data = JSON.parse(files["data.json"] ?? "");
    expect(data).toMatchObject({
      format: "tunewave-data-export",
      version: 1,
      exportedAt: "2025-06-01T00:00:00.000Z",
    });
    expect(data.tags[1]).toEqual({
      id: "tag-2",
      trackKey: "7",
      title: null,
      artist: null,
      taggedAt: "2025-01-04T00:00:00.000Z",
      country: null,
      lat: null,
      lng: null,
      hiddenAt: "2025-01-05T00:00:00.000Z",
      recognitionId: "-1",
      createdAt: "2025-01-04T00:00:00.000Z",
    });
  });

  test("formula-like cells are text in every spreadsheet; empty values are empty cells", async () => {
    const files = unzip(await archiveOf(personData(), "en-US", Date.UTC(2025, 5, 1)));
    const tags = (files["tags.csv"] ?? "").split("\r\n");
    expect(tags[1]).toBe(
      "tag-1,42,'=SUM(A1:A9),\"'+Artist, with a comma\",2025-01-03T00:00:00.000Z,GB,51.5,-0.12,,web:1,2025-01-03T00:00:00.000Z",
    );
    expect(tags[2]).toBe(
      "tag-2,7,,,2025-01-04T00:00:00.000Z,,,,2025-01-05T00:00:00.000Z,'-1,2025-01-04T00:00:00.000Z",
    );
    expect(files["sign-in-requests.csv"]).toBe(
      "CreatedAt,ExpiresAt,UsedAt,Locale,InstallId\r\n2025-01-02T00:00:00.000Z,2025-01-02T00:15:00.000Z,,de-DE,'@inid\r\n",
    );
    expect(files["data-exports.csv"]).toBe("CreatedAt,ExpiresAt\r\n");
  });

  test("a stored time no date can show is an empty cell, never a failed archive", async () => {
    const [tag] = personData().tags;
    if (!tag) throw new Error("the factory has tags");
    const archive = await archiveOf(
      personData({ tags: [{ ...tag, tagTime: 1e300, hiddenAt: -1e300 }] }),
      "en-US",
      Date.UTC(2025, 5, 1),
    );
    const files = unzip(archive);
    expect(JSON.parse(files["data.json"] ?? "").tags[0]).toMatchObject({ taggedAt: null, hiddenAt: null });
    expect((files["tags.csv"] ?? "").split("\r\n")).toHaveLength(3);
  });

  test.each([["en-US"], ["de-DE"], ["ja-JP"], ["pt-BR"], ["xx-YY"]])(
    "the README is in the language asked for (%s), English when there is none",
    async (locale) => {
      const files = unzip(await archiveOf(personData(), locale, Date.UTC(2025, 5, 1)));
      const lang =
        { "en-US": "en", "de-DE": "de", "ja-JP": "ja", "pt-BR": "pt-br", "xx-YY": "en" }[locale] ?? "";
      const archive = resources[lang]?.privacy.archive as { title: string; times: string };
      expect(files["README.txt"]?.split("\r\n")[0]).toBe(archive.title);
      expect(files["README.txt"]).toContain(archive.times);
      expect(files["README.txt"]).toContain("ana@example.com");
    },
  );
});
