import * as v from "valibot";
import type { OriginApp, OriginContext } from "#origin/env.ts";
import { invalidParam, jsonBody, noStoreJson, parseParams } from "#origin/http.ts";
import { dataDownloadMail, mailerOf } from "#origin/mail.ts";
import {
  claimExport,
  completeExport,
  dataCategoriesOf,
  deleteAccount,
  dropExport,
  type ExportLookup,
  findExport,
  personData,
  purgeExports,
} from "#origin/privacy.ts";
import { archiveOf } from "#origin/privacy-archive.ts";
import { signedInAccount } from "#origin/signed-in.ts";
import { expiredSessionCookie } from "#rules/account.ts";
import { secureCookiesOf, siteUrl } from "#rules/env.ts";
import { localizedPath, matchLanguage } from "#rules/languages.ts";
import {
  accountDeletionSchema,
  dataExportIdSchema,
  dataExportPagePath,
  dataExportRequestSchema,
  dataExportTokenSchema,
  type ExportRefusal,
  exportRefusalStatus,
  privacyMessages,
} from "#rules/privacy.ts";

// The privacy flows in the account service (spec 000 §1, §5, §8; decision 020): the data download
// (asked for, mailed, fetched by the same account), the data categories held now, and account
// deletion. Every call needs the session (401 without, 456 ended); every answer is the person's own.

/**
 * A data download's answers are `private` as well as `no-store`: the site's services proxy then
 * never remembers a refusal by URL (its failure memory is per URL, not per cookie), so one
 * account's 403 on a link is never replayed to the account the link belongs to.
 */
const privateNoStore = "private, no-store";

function refusal(reason: ExportRefusal, extra: { createdAt?: number; expiresAt?: number } = {}): Response {
  const response = noStoreJson(
    {
      error: reason === "unknown" ? "notfound" : "unauthorized",
      reason,
      message: privacyMessages[reason],
      ...extra,
    },
    exportRefusalStatus[reason],
  );
  response.headers.set("Cache-Control", privateNoStore);
  return response;
}

const downloadQuerySchema = v.object({ token: dataExportTokenSchema });

/** The file name a browser saves: the site and the day it was made. */
function archiveFileName(createdAt: number): string {
  return `tunewave-data-${new Date(createdAt).toISOString().slice(0, 10)}.zip`;
}

export function registerPrivacy(origin: OriginApp) {
  /**
   * Spec 000 §5 "download needs a correspondence email address": the account's own. Prepares the
   * archive at once, mails its link to that address and answers 202; 409 while an earlier one is
   * still in process (spec 000 §8 "request already in process").
   */
  origin.post("/account/privacy/export", async (c) => {
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const request = parseParams(dataExportRequestSchema, await jsonBody(c));
    const now = Date.now();
    await purgeExports(c.var.db, now);
    const claim = await claimExport(c.var.db, signedIn.userId, now);
    if (claim.outcome === "inprocess") {
      return refusal("inprocess", { createdAt: claim.createdAt, expiresAt: claim.expiresAt });
    }
    const email = signedIn.state.email;
    let expiresAt: number;
    try {
      const data = await personData(c.var.db, signedIn.userId);
      if (!data) throw new Error("the account is gone");
      expiresAt = await completeExport(c.var.db, claim.id, await archiveOf(data, request.locale, now), now);
      const lang = matchLanguage(request.locale) ?? "en";
      const link = siteUrl(c.env, localizedPath(lang, dataExportPagePath(claim.id)));
      link.searchParams.set("token", claim.token);
      await mailerOf(c.env).send(await dataDownloadMail(email, request.locale, link.href, expiresAt));
    } catch (error) {
      console.error("privacy: the data download was not prepared or mailed:", error);
      await dropExport(c.var.db, claim.id);
      return noStoreJson({ error: "serviceerror", message: "The data download could not be prepared" }, 502);
    }
    return noStoreJson({ email, expiresAt }, 202);
  });

  /**
   * The mailed link's download: only for the account that asked (403 "wrong account" for
   * another), until it expires (410 "expired download file"); a link that is not ours is 404.
   * `/status` answers the same question without the file: the site's page asks it first.
   */
  async function lookUp(
    c: OriginContext,
    withArchive: boolean,
  ): Promise<Response | Extract<ExportLookup, { outcome: "ready" }>> {
    const id = v.safeParse(dataExportIdSchema, c.req.param("id"));
    const query = v.safeParse(downloadQuerySchema, c.req.query());
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    if (!id.success || !query.success) return refusal("unknown");
    const now = Date.now();
    await purgeExports(c.var.db, now);
    const link = { id: id.output, token: query.output.token };
    const found = await findExport(c.var.db, link, signedIn.userId, now, withArchive);
    return found.outcome === "ready" ? found : refusal(found.outcome);
  }

  origin.get("/account/privacy/export/:id", async (c) => {
    const found = await lookUp(c, true);
    if (found instanceof Response) return found;
    return new Response(found.archive, {
      status: 200,
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${archiveFileName(found.createdAt)}"`,
        "Cache-Control": privateNoStore,
      },
    });
  });

  origin.get("/account/privacy/export/:id/status", async (c) => {
    const found = await lookUp(c, false);
    if (found instanceof Response) return found;
    const answer = noStoreJson(
      { size: found.size, createdAt: found.createdAt, expiresAt: found.expiresAt },
      200,
    );
    answer.headers.set("Cache-Control", privateNoStore);
    return answer;
  });

  /** Spec 001 §5 "data categories requests need an account": what is held on it now, by kind. */
  origin.get("/account/privacy/categories", async (c) => {
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const categories = await dataCategoriesOf(c.var.db, signedIn.userId, Date.now());
    if (!categories) return noStoreJson({ error: "unauthorized", message: "The account is gone" }, 401);
    return noStoreJson(categories, 200);
  });

  /**
   * Deletes the account and everything held on it, at once (the stricter of spec 001 §9's two
   * readings), after the person typed its address again; signs the browser out.
   */
  origin.post("/account/privacy/delete", async (c) => {
    const signedIn = await signedInAccount(c);
    if ("refused" in signedIn) return signedIn.refused;
    const confirmation = parseParams(accountDeletionSchema, await jsonBody(c));
    if (confirmation.email !== signedIn.state.email) {
      throw invalidParam("The address is not the signed-in account's");
    }
    await deleteAccount(c.var.db, { userId: signedIn.userId, email: signedIn.state.email });
    return noStoreJson({ deleted: true }, 200, [expiredSessionCookie(secureCookiesOf(c.env))]);
  });
}
