import { strToU8, zipSync } from "fflate";
import { csvRow } from "../rules/csv";
import { languageOf } from "../rules/languages";
import { formatPrivacyDate } from "../rules/privacy";
import { serviceStrings } from "./mail";
import type { PersonData } from "./privacy";

// The data download's archive (issue 21): everything held on one account as one JSON file, one
// spreadsheet per kind of record (CSV, formula-safe: rules/csv.ts) and a README in the person's
// language. Times are ISO 8601 in UTC; secrets (session, link and device hashes) are never in it.

type Cell = string | number | boolean | null;

/** A time as the archive writes it; null for none, and for a stored value no date can show. */
function iso(epochMs: number | null): string | null {
  if (epochMs === null) return null;
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The archive's files, by name: what `archiveOf` zips (and what a test reads back). */
export const archiveFiles = [
  "README.txt",
  "data.json",
  "account.csv",
  "sessions.csv",
  "tags.csv",
  "sign-in-requests.csv",
  "data-exports.csv",
  "offer-codes.csv",
  "verification-requests.csv",
  "streaming-connections.csv",
  "survey-answers.csv",
] as const;

function csv(header: readonly string[], rows: readonly (readonly Cell[])[]): Uint8Array {
  return strToU8([header, ...rows].map(csvRow).join(""));
}

/** The JSON form: the same records as the CSV files, with field names that say what they are. */
export function dataJson(data: PersonData, exportedAt: number) {
  return {
    format: "tunewave-data-export",
    version: 1,
    exportedAt: iso(exportedAt),
    account: { id: data.account.id, email: data.account.email, createdAt: iso(data.account.createdAt) },
    sessions: data.sessions.map((session) => ({
      method: session.method,
      createdAt: iso(session.createdAt),
      expiresAt: iso(session.expiresAt),
    })),
    tags: data.tags.map((tag) => ({
      id: tag.id,
      trackKey: String(tag.trackKey),
      title: tag.title,
      artist: tag.artist,
      taggedAt: iso(tag.tagTime),
      country: tag.country,
      lat: tag.lat,
      lng: tag.lng,
      hiddenAt: iso(tag.hiddenAt),
      recognitionId: tag.recognitionId,
      createdAt: iso(tag.createdAt),
    })),
    signInRequests: data.signInRequests.map((request) => ({
      createdAt: iso(request.createdAt),
      expiresAt: iso(request.expiresAt),
      usedAt: iso(request.usedAt),
      locale: request.locale,
      installId: request.installId,
    })),
    dataExports: data.dataExports.map((request) => ({
      createdAt: iso(request.createdAt),
      expiresAt: iso(request.expiresAt),
    })),
    offerCodes: data.offerCodes.map((offer) => ({
      campaign: offer.campaign,
      code: offer.code,
      months: offer.months,
      platform: offer.platform,
      country: offer.country,
      createdAt: iso(offer.createdAt),
    })),
    verificationRequests: data.verificationRequests.map((request) => ({
      id: request.id,
      artistName: request.artistName,
      email: request.email,
      role: request.role,
      link: request.link,
      message: request.message,
      status: request.status,
      lang: request.lang,
      createdAt: iso(request.createdAt),
    })),
    streamingConnections: data.streamingConnections.map((connection) => ({
      clientId: connection.clientId,
      scope: connection.scope,
      createdAt: iso(connection.createdAt),
      expiresAt: iso(connection.expiresAt),
      revokedAt: iso(connection.revokedAt),
    })),
    surveyAnswers: data.surveyAnswers.map((answer) => ({
      satisfaction: answer.satisfaction,
      found: answer.found,
      comment: answer.comment,
      lang: answer.lang,
      createdAt: iso(answer.createdAt),
    })),
  };
}

/** The README: what the archive is and what each file holds, in the language of `locale`. */
function readme(data: PersonData, locale: string, exportedAt: number): string {
  const { lang, t } = serviceStrings(locale, "privacy");
  const made = formatPrivacyDate(languageOf(lang).locale, exportedAt);
  const lines = [
    t("archive.title"),
    "",
    t("archive.made", { date: made, email: data.account.email }),
    "",
    ...(
      [
        ["data.json", "dataJson"],
        ["account.csv", "account"],
        ["sessions.csv", "sessions"],
        ["tags.csv", "tags"],
        ["sign-in-requests.csv", "signInRequests"],
        ["data-exports.csv", "dataExports"],
        ["offer-codes.csv", "offerCodes"],
        ["verification-requests.csv", "verificationRequests"],
        ["streaming-connections.csv", "streamingConnections"],
        ["survey-answers.csv", "surveyAnswers"],
      ] as const
    ).map(([file, key]) => `${file}: ${t(`archive.files.${key}`)}`),
    "",
    t("archive.times"),
    "",
  ];
  // Windows' Notepad and mail clients read CRLF everywhere; the other files are UTF-8 too.
  return lines.join("\r\n");
}

/** The ZIP archive of everything held on the account, dated `exportedAt`. */
export function archiveOf(data: PersonData, locale: string, exportedAt: number): Uint8Array {
  const json = dataJson(data, exportedAt);
  const mtime = new Date(exportedAt);
  const files: Record<(typeof archiveFiles)[number], Uint8Array> = {
    "README.txt": strToU8(readme(data, locale, exportedAt)),
    "data.json": strToU8(`${JSON.stringify(json, null, 2)}\n`),
    "account.csv": csv(
      ["Id", "Email", "CreatedAt"],
      [[json.account.id, json.account.email, json.account.createdAt]],
    ),
    "sessions.csv": csv(
      ["Method", "CreatedAt", "ExpiresAt"],
      json.sessions.map((session) => [session.method, session.createdAt, session.expiresAt]),
    ),
    "tags.csv": csv(
      [
        "Id",
        "TrackKey",
        "Title",
        "Artist",
        "TaggedAt",
        "Country",
        "Latitude",
        "Longitude",
        "HiddenAt",
        "RecognitionId",
        "CreatedAt",
      ],
      json.tags.map((tag) => [
        tag.id,
        tag.trackKey,
        tag.title,
        tag.artist,
        tag.taggedAt,
        tag.country,
        tag.lat,
        tag.lng,
        tag.hiddenAt,
        tag.recognitionId,
        tag.createdAt,
      ]),
    ),
    "sign-in-requests.csv": csv(
      ["CreatedAt", "ExpiresAt", "UsedAt", "Locale", "InstallId"],
      json.signInRequests.map((request) => [
        request.createdAt,
        request.expiresAt,
        request.usedAt,
        request.locale,
        request.installId,
      ]),
    ),
    "data-exports.csv": csv(
      ["CreatedAt", "ExpiresAt"],
      json.dataExports.map((request) => [request.createdAt, request.expiresAt]),
    ),
    "offer-codes.csv": csv(
      ["Campaign", "Code", "Months", "Platform", "Country", "CreatedAt"],
      json.offerCodes.map((offer) => [
        offer.campaign,
        offer.code,
        offer.months,
        offer.platform,
        offer.country,
        offer.createdAt,
      ]),
    ),
    "verification-requests.csv": csv(
      ["Id", "ArtistName", "Email", "Role", "Link", "Message", "Status", "Language", "CreatedAt"],
      json.verificationRequests.map((request) => [
        request.id,
        request.artistName,
        request.email,
        request.role,
        request.link,
        request.message,
        request.status,
        request.lang,
        request.createdAt,
      ]),
    ),
    "streaming-connections.csv": csv(
      ["ClientId", "Scope", "CreatedAt", "ExpiresAt", "RevokedAt"],
      json.streamingConnections.map((connection) => [
        connection.clientId,
        connection.scope,
        connection.createdAt,
        connection.expiresAt,
        connection.revokedAt,
      ]),
    ),
    "survey-answers.csv": csv(
      ["Satisfaction", "Found", "Comment", "Language", "CreatedAt"],
      json.surveyAnswers.map((answer) => [
        answer.satisfaction,
        answer.found,
        answer.comment,
        answer.lang,
        answer.createdAt,
      ]),
    ),
  };
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, [bytes, { mtime }]])),
    { level: 6 },
  );
}
