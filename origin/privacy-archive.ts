import { csvRow } from "#rules/csv.ts";
import { languageOf } from "#rules/languages.ts";
import { formatPrivacyDate } from "#rules/privacy.ts";
import { serviceStrings } from "./mail";
import type { PersonData } from "./privacy";

// The data download's archive (decision 020): everything held on one account as one JSON file, one
// spreadsheet per kind of record (CSV, formula-safe: rules/csv.ts) and a README in the person's
// language. Times are ISO 8601 in UTC; secrets (session, link and device hashes) are never in it.

type Cell = string | number | boolean | null;

/** A time as the archive writes it; null for none, and for a stored value no date can show. */
function iso(epochMs: number | null): string | null {
  if (epochMs === null) return null;
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** One column of a kind of record: its field in data.json, its spreadsheet header, its value. */
type Column<R> = { field: string; header: string; value: (record: R) => Cell };

function field<R>(name: keyof R & string, header: string): Column<R> {
  return { field: name, header, value: (record) => record[name] as Cell };
}

function time<R>(name: keyof R & string, header: string, from: keyof R & string = name): Column<R> {
  return { field: name, header, value: (record) => iso(record[from] as number | null) };
}

type Kind = Exclude<keyof PersonData, "account">;
type Section<K extends Kind, F extends `${string}.csv`> = {
  key: K;
  file: F;
  columns: Column<PersonData[K][number]>[];
};

function section<K extends Kind, F extends `${string}.csv`>(
  key: K,
  file: F,
  columns: Column<PersonData[K][number]>[],
): Section<K, F> {
  return { key, file, columns };
}

const accountColumns: Column<PersonData["account"]>[] = [
  field("id", "Id"),
  field("email", "Email"),
  time("createdAt", "CreatedAt"),
];

/**
 * Every kind of record held on an account, in the archive's order: its key in data.json (and in
 * the README's strings), its spreadsheet, and its columns; data.json and the CSV files are both
 * written from this one table.
 */
const sections = [
  section("sessions", "sessions.csv", [
    field("method", "Method"),
    time("createdAt", "CreatedAt"),
    time("expiresAt", "ExpiresAt"),
  ]),
  section("tags", "tags.csv", [
    field("id", "Id"),
    { field: "trackKey", header: "TrackKey", value: (tag) => String(tag.trackKey) },
    field("title", "Title"),
    field("artist", "Artist"),
    { ...time("tagTime", "TaggedAt"), field: "taggedAt" },
    field("country", "Country"),
    field("lat", "Latitude"),
    field("lng", "Longitude"),
    time("hiddenAt", "HiddenAt"),
    field("recognitionId", "RecognitionId"),
    time("createdAt", "CreatedAt"),
  ]),
  section("signInRequests", "sign-in-requests.csv", [
    time("createdAt", "CreatedAt"),
    time("expiresAt", "ExpiresAt"),
    time("usedAt", "UsedAt"),
    field("locale", "Locale"),
    field("installId", "InstallId"),
  ]),
  section("dataExports", "data-exports.csv", [
    time("createdAt", "CreatedAt"),
    time("expiresAt", "ExpiresAt"),
  ]),
  section("offerCodes", "offer-codes.csv", [
    field("campaign", "Campaign"),
    field("code", "Code"),
    field("months", "Months"),
    field("platform", "Platform"),
    field("country", "Country"),
    time("createdAt", "CreatedAt"),
  ]),
  section("verificationRequests", "verification-requests.csv", [
    field("id", "Id"),
    field("artistName", "ArtistName"),
    field("email", "Email"),
    field("role", "Role"),
    field("link", "Link"),
    field("message", "Message"),
    field("status", "Status"),
    field("lang", "Language"),
    time("createdAt", "CreatedAt"),
  ]),
  section("streamingConnections", "streaming-connections.csv", [
    field("clientId", "ClientId"),
    field("scope", "Scope"),
    time("createdAt", "CreatedAt"),
    time("expiresAt", "ExpiresAt"),
    time("revokedAt", "RevokedAt"),
  ]),
  section("surveyAnswers", "survey-answers.csv", [
    field("satisfaction", "Satisfaction"),
    field("found", "Found"),
    field("comment", "Comment"),
    field("lang", "Language"),
    time("createdAt", "CreatedAt"),
  ]),
] as const;

/** The archive's files, by name: what `archiveOf` zips (and what a test reads back). */
export const archiveFiles = [
  "README.txt",
  "data.json",
  "account.csv",
  ...sections.map((kind) => kind.file),
] as const;

/** UTF-8 bytes of a text (what fflate's `strToU8` does; TextEncoder is the platform's own). */
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function csv<R>(columns: readonly Column<R>[], records: readonly R[]): Uint8Array {
  const rows = records.map((record) => columns.map((column) => column.value(record)));
  return utf8([columns.map((column) => column.header), ...rows].map(csvRow).join(""));
}

function jsonRecord<R>(columns: readonly Column<R>[], record: R): Record<string, Cell> {
  return Object.fromEntries(columns.map((column) => [column.field, column.value(record)]));
}

/** The JSON form: the same records as the CSV files, with field names that say what they are. */
export function dataJson(data: PersonData, exportedAt: number) {
  return {
    format: "tunewave-data-export",
    version: 1,
    exportedAt: iso(exportedAt),
    account: jsonRecord(accountColumns, data.account),
    ...Object.fromEntries(
      sections.map(({ key, columns }) => [
        key,
        (data[key] as PersonData[Kind][number][]).map((record) =>
          jsonRecord(columns as Column<PersonData[Kind][number]>[], record),
        ),
      ]),
    ),
  };
}

/** The README: what the archive is and what each file holds, in the language of `locale`. */
async function readme(data: PersonData, locale: string, exportedAt: number): Promise<string> {
  const { lang, t } = await serviceStrings(locale, "privacy");
  const made = formatPrivacyDate(languageOf(lang).locale, exportedAt);
  const lines = [
    t("archive.title"),
    "",
    t("archive.made", { date: made, email: data.account.email }),
    "",
    ...[
      ["data.json", "dataJson"],
      ["account.csv", "account"],
      ...sections.map((kind) => [kind.file, kind.key]),
    ].map(([file, key]) => `${file}: ${t(`archive.files.${key}`)}`),
    "",
    t("archive.times"),
    "",
  ];
  // Windows' Notepad and mail clients read CRLF everywhere; the other files are UTF-8 too.
  return lines.join("\r\n");
}

/**
 * The ZIP archive of everything held on the account, dated `exportedAt`. fflate is loaded on first
 * use: an export is rare, and every new isolate would compile it (decision 061).
 */
export async function archiveOf(data: PersonData, locale: string, exportedAt: number): Promise<Uint8Array> {
  const { zipSync } = await import("fflate");
  const json = dataJson(data, exportedAt);
  const mtime = new Date(exportedAt);
  const sheets = Object.fromEntries(
    sections.map(({ key, file, columns }) => [
      file,
      csv(columns as Column<PersonData[Kind][number]>[], data[key] as PersonData[Kind][number][]),
    ]),
  ) as Record<(typeof sections)[number]["file"], Uint8Array>;
  const files: Record<(typeof archiveFiles)[number], Uint8Array> = {
    "README.txt": utf8(await readme(data, locale, exportedAt)),
    "data.json": utf8(`${JSON.stringify(json, null, 2)}\n`),
    "account.csv": csv(accountColumns, [data.account]),
    ...sheets,
  };
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, [bytes, { mtime }]])),
    { level: 6 },
  );
}
