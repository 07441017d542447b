import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { accountCall } from "#edge/session.ts";
import { emailSchema, sessionEndedStatus } from "#rules/account.ts";
import type { LanguageKey } from "#rules/languages.ts";
import { localizedPath } from "#rules/path.ts";
import {
  type DataCategories,
  type DataExportStatus,
  dataCategoriesSchema,
  dataExportSentSchema,
  dataExportStatusSchema,
  type ExportRefusal,
  exportRefusalSchema,
} from "#rules/privacy.ts";
import type { PrivacyHrefs } from "./privacy";

export { privacyPolicySections } from "#app/legal/privacy-policy.ts";
// What the privacy routes' loaders and actions use from modules that also hold valibot schemas,
// re-exported here: a route module importing those modules itself would load valibot in the
// browser with the page, though only its loader uses them (decision 027).
export { emailLinkLifetimeMs, sessionLifetimeSeconds } from "#rules/account.ts";
export { cookieMaxAgeSeconds, webIdMaxAgeSeconds } from "#rules/cookies.ts";
export { hiddenTagLifetimeMs } from "#rules/library.ts";
export {
  dataExportLifetimeMs,
  expiredExportRecordMs,
  formatDuration,
  formatPrivacyDate,
  privacyAnswerDays,
  transferNoticeDeletionDays,
} from "#rules/privacy.ts";
export { eventRetentionDays } from "#rules/schemas/identification.ts";
export { dayMs } from "#rules/time.ts";

// The privacy steps a page takes on the signed-in person's behalf, through the services proxy to
// the account service (origin/routes/privacy.ts); each passes on the cookies the service sets.

type Context = Pick<AppLoadContext, "edge" | "services">;

/** The privacy pages' addresses in the visitor's language. */
export function privacyHrefs(lang: LanguageKey): PrivacyHrefs {
  return {
    landing: localizedPath(lang, "/privacy"),
    policy: localizedPath(lang, "/privacy/policy"),
    download: localizedPath(lang, "/privacy/download"),
    delete: localizedPath(lang, "/privacy/delete"),
    dataCategories: localizedPath(lang, "/privacy/data-categories"),
    transferNotice: localizedPath(lang, "/privacy/transfer-notice"),
  };
}

/** Where a signed-out visitor signs in, to come back to `back` (a path of this site). */
export function signInHref(lang: LanguageKey, back: string): string {
  return `${localizedPath(lang, "/login")}?${new URLSearchParams({ redirect: back })}`;
}

/** The session is gone (401, or 456 ended elsewhere): the page sends the person to sign in. */
export type SignedOut = { outcome: "signedout"; setCookies: string[] };

const isSignedOut = (status: number) => status === 401 || status === sessionEndedStatus;

export type DataDownloadRequest =
  | { outcome: "sent"; email: string; expiresAt: number }
  | { outcome: "inprocess"; createdAt: number; expiresAt: number }
  | { outcome: "failed" }
  | SignedOut;

/** Spec 000 §1 "data download": prepared at once, its link mailed to the account's address. */
export async function requestDataDownload(
  { edge, services }: Context,
  request: Request,
): Promise<DataDownloadRequest> {
  const response = await accountCall(services, request, ["privacy", "export"], {
    method: "POST",
    body: { locale: edge.locale },
  });
  const setCookies = response.headers.getSetCookie();
  const body = await response.json().catch(() => undefined);
  if (isSignedOut(response.status)) return { outcome: "signedout", setCookies };
  if (response.status === 202) {
    const sent = v.safeParse(dataExportSentSchema, body);
    if (sent.success) return { outcome: "sent", ...sent.output };
  }
  const refused = v.safeParse(exportRefusalSchema, body);
  if (refused.success && refused.output.reason === "inprocess") {
    const { createdAt, expiresAt } = refused.output;
    if (createdAt !== undefined && expiresAt !== undefined)
      return { outcome: "inprocess", createdAt, expiresAt };
  }
  return { outcome: "failed" };
}

export type DataDownloadLookup =
  | { outcome: "ready"; status: DataExportStatus }
  | { outcome: ExportRefusal; status: number }
  | { outcome: "failed"; status: number }
  | SignedOut;

/** A download link's export under the account service: `privacy/export/{id}[/status]`. */
function exportSegments(link: { id: string }, status: boolean): string[] {
  return ["privacy", "export", link.id, ...(status ? ["status"] : [])];
}

/** Refusals of a download link: wrong account 403, expired 410, still in process 409, unknown 404. */
async function refusalOf(response: Response): Promise<{ outcome: ExportRefusal | "failed"; status: number }> {
  const refused = v.safeParse(exportRefusalSchema, await response.json().catch(() => undefined));
  if (refused.success) return { outcome: refused.output.reason, status: response.status };
  return { outcome: "failed", status: response.status >= 500 ? response.status : 502 };
}

/** What the mailed link names, for the signed-in account, without the file. */
export async function dataDownloadStatus(
  { services }: Context,
  request: Request,
  link: { id: string; token: string },
): Promise<DataDownloadLookup> {
  const response = await accountCall(services, request, exportSegments(link, true), {
    query: { token: link.token },
  });
  if (isSignedOut(response.status)) {
    await response.body?.cancel();
    return { outcome: "signedout", setCookies: response.headers.getSetCookie() };
  }
  if (response.status === 200) {
    const status = v.safeParse(dataExportStatusSchema, await response.json().catch(() => undefined));
    if (status.success) return { outcome: "ready", status: status.output };
    return { outcome: "failed", status: 502 };
  }
  return refusalOf(response);
}

/** The file itself: the service's answer as it is (the ZIP and its headers), or why not. */
export async function dataDownloadFile(
  { services }: Context,
  request: Request,
  link: { id: string; token: string },
): Promise<{ outcome: "file"; response: Response } | { outcome: "refused" }> {
  const response = await accountCall(services, request, exportSegments(link, false), {
    query: { token: link.token },
  });
  if (response.status === 200 && response.headers.get("content-type") === "application/zip") {
    return { outcome: "file", response };
  }
  await response.body?.cancel();
  return { outcome: "refused" };
}

export type AccountDeletion =
  | { outcome: "deleted"; setCookies: string[] }
  | { outcome: "mismatch" | "failed" }
  | SignedOut;

/** Deletes the signed-in account and everything held on it; the service clears the session cookie. */
export async function deleteAccount(
  { services }: Context,
  request: Request,
  email: string,
): Promise<AccountDeletion> {
  const response = await accountCall(services, request, ["privacy", "delete"], {
    method: "POST",
    body: { email },
  });
  await response.body?.cancel();
  const setCookies = response.headers.getSetCookie();
  if (response.status === 200) return { outcome: "deleted", setCookies };
  if (isSignedOut(response.status)) return { outcome: "signedout", setCookies };
  if (response.status === 400) return { outcome: "mismatch" };
  return { outcome: "failed" };
}

/** What is held on the signed-in account now, or undefined when the service cannot say. */
export async function dataCategories(
  { services }: Context,
  request: Request,
): Promise<DataCategories | undefined> {
  const response = await accountCall(services, request, ["privacy", "categories"]);
  const parsed = v.safeParse(dataCategoriesSchema, await response.json().catch(() => undefined));
  return response.status === 200 && parsed.success ? parsed.output : undefined;
}

/** The address typed to confirm a deletion, when it is an address at all. */
export function typedEmailOf(typed: string): string | undefined {
  const email = v.safeParse(emailSchema, typed);
  return email.success ? email.output : undefined;
}
