import { type AppLoadContext, type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";
import * as v from "valibot";
import { cookieHeaders, requireAccount } from "#app/account/account.server.ts";
import { requireKnownLanguage } from "#app/shell/http.server.ts";
import { trackSummaryOfPayload } from "#app/shell/view.ts";
import { accountCall } from "#edge/session.ts";
import { sessionEndedStatus } from "#rules/account.ts";
import type { QueryParams } from "#rules/addresses.ts";
import { countryName } from "#rules/countries.ts";
import { csvContentType, csvRow } from "#rules/csv.ts";
import { siteOriginOf } from "#rules/env.ts";
import { SiteError, statusOfError } from "#rules/errors.ts";
import { visitorTimeZoneOf } from "#rules/events.ts";
import { dateTimeFormat } from "#rules/intl.ts";
import { languageOf } from "#rules/languages.ts";
import {
  type LibraryExportFormat,
  type LibraryTag,
  libraryCountSchema,
  libraryCsvHeader,
  maxTagPageSize,
  noMorePages,
  type TagList,
  tagIdSchema,
  tagListSchema,
  tagPageTokenSchema,
} from "#rules/library.ts";
import { localizedPath } from "#rules/path.ts";
import { type LibraryItem, libraryItemOf } from "./library";

// My Library's page data (decision 019): the signed-in person's tags through the account service
// (spec 002 §7 "Tags and status"), their removal and its undo, and the export.

type Context = Pick<AppLoadContext, "edge" | "services" | "cloudflare" | "config">;

export type LibraryPage = {
  count: number;
  items: LibraryItem[];
  /** The position of this page's first tag (0 on the first page). */
  offset: number;
  olderHref: string | undefined;
  newestHref: string | undefined;
};

/** An account call refused because the session has ended (456) or is missing (401). */
function isSignedOut(status: number): boolean {
  return status === sessionEndedStatus || status === 401;
}

/**
 * Spec 002 §8 "Status 456 on my-tags or count: Logout": back to the library page with the cookie
 * the service cleared, which then shows the signed-out state.
 */
function signedOutRedirect(context: Context, setCookies: string[]): never {
  throw redirect(localizedPath(context.edge.lang, "/myshazam"), { headers: cookieHeaders(setCookies) });
}

async function accountJson<S extends v.GenericSchema>(
  context: Context,
  request: Request,
  call: { segments: readonly string[]; query?: QueryParams },
  schema: S,
): Promise<v.InferOutput<S>> {
  const answer = await accountCall(context.services, request, call.segments, { query: call.query });
  if (isSignedOut(answer.status)) {
    await answer.body?.cancel();
    signedOutRedirect(context, answer.headers.getSetCookie());
  }
  if (answer.status === 400) {
    await answer.body?.cancel();
    throw new SiteError("invalidparam", "The library page asked for does not exist");
  }
  const parsed = v.safeParse(schema, await answer.json().catch(() => undefined));
  if (answer.status !== 200 || !parsed.success) {
    throw new SiteError("serviceerror", `The account service answered ${answer.status}`);
  }
  return parsed.output;
}

/** One page of the library (`token` from the address: the page after the one that gave it) and the count. */
export async function loadLibrary(context: Context, request: Request): Promise<LibraryPage> {
  const { lang } = context.edge;
  const typed = new URL(request.url).searchParams.get("token");
  const token = typed === null ? undefined : v.safeParse(tagPageTokenSchema, typed);
  if (token && !token.success)
    throw new SiteError("invalidparam", "The library page asked for does not exist");
  const list = await accountJson(
    context,
    request,
    { segments: ["tags"], query: { token: token?.output } },
    tagListSchema,
  );
  // The embedded origin answers the count with the page; an upstream of the spec's fields alone
  // is asked for it (spec 002 §7 "GET tag count").
  const count =
    list.count ??
    (await accountJson(context, request, { segments: ["tags", "count"] }, libraryCountSchema)).count;
  const format = dateTimeFormat(languageOf(lang).locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: visitorTimeZoneOf(context.cloudflare.cf),
  });
  const path = localizedPath(lang, "/myshazam");
  return {
    count,
    items: list.tags.map((tag) => libraryItemOf(tag, lang, format, (code) => countryName(code, lang))),
    offset: Math.max(
      0,
      list.start === noMorePages ? count - list.tags.length : list.start - list.tags.length,
    ),
    olderHref: list.token ? `${path}?${new URLSearchParams({ token: list.token })}` : undefined,
    newestHref: token ? path : undefined,
  };
}

export type TagChange = "hide" | "restore";

const changeFormSchema = v.object({
  intent: v.picklist(["remove", "restore"]),
  tagid: tagIdSchema,
});

/** The library page's remove / undo form: what to do to which tag, or undefined for anything else. */
export function tagChangeOf(form: FormData): { tagid: string; change: TagChange } | undefined {
  const parsed = v.safeParse(changeFormSchema, { intent: form.get("intent"), tagid: form.get("tagid") });
  if (!parsed.success) return undefined;
  return { tagid: parsed.output.tagid, change: parsed.output.intent === "remove" ? "hide" : "restore" };
}

/**
 * Removes a tag or undoes the removal; the tag's title for the page's notice, or undefined if it is
 * not there. `setCookies`: the account service's, the bookmark of the change among them, which the
 * person's next reads need to see it (decision 062).
 */
export async function changeTag(
  context: Context,
  request: Request,
  tagid: string,
  change: TagChange,
): Promise<{ title: string; tagid: string; setCookies: string[] } | undefined> {
  const answer = await accountCall(context.services, request, ["tags", tagid, change], {
    method: "POST",
  });
  if (isSignedOut(answer.status)) {
    await answer.body?.cancel();
    signedOutRedirect(context, answer.headers.getSetCookie());
  }
  if (answer.status === 404 || answer.status === 400) {
    await answer.body?.cancel();
    return undefined;
  }
  const parsed = v.safeParse(
    v.object({ tag: v.object({ tagid: v.string(), track: v.object({ title: v.string() }) }) }),
    await answer.json().catch(() => undefined),
  );
  if (answer.status !== 200 || !parsed.success) {
    throw new SiteError("serviceerror", `The account service answered ${answer.status}`);
  }
  return {
    tagid: parsed.output.tag.tagid,
    title: parsed.output.tag.track.title,
    setCookies: answer.headers.getSetCookie(),
  };
}

/** The file name of an export: the site's name and the day, ASCII only. */
export function exportFileName(format: LibraryExportFormat, now: Date): string {
  return `tunewave-library-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * The whole library as one file (decision 019), newest first: CSV (`Index,TagTime,Title,Artist,URL,
 * TrackKey`, formula-safe cells) or JSON. Streamed: each page of the account service is written
 * as it arrives, so a long library never sits in memory whole. A page that fails midway errors the
 * stream, and the browser reports a failed download instead of keeping a cut-off file.
 */
export async function exportLibrary(
  context: Context,
  request: Request,
  format: LibraryExportFormat,
  now: Date,
): Promise<Response> {
  const origin = siteOriginOf(context.config);
  const page = (token: string | undefined): Promise<TagList> =>
    accountJson(
      context,
      request,
      { segments: ["tags"], query: { limit: maxTagPageSize, token } },
      tagListSchema,
    );
  // The first page before the answer starts: a signed-out visitor gets the redirect, not a file.
  let next: TagList | undefined = await page(undefined);
  let index = 0;
  const encoder = new TextEncoder();
  const rowOf = (tag: LibraryTag) => {
    index += 1;
    const item = {
      index,
      tagTime: new Date(tag.timestamp).toISOString(),
      title: tag.track.title,
      artist: tag.track.subtitle,
      url: new URL(trackSummaryOfPayload(tag.track, context.edge.lang).href, origin).href,
      trackKey: tag.key,
    };
    return format === "csv"
      ? csvRow([item.index, item.tagTime, item.title, item.artist, item.url, item.trackKey])
      : `${index > 1 ? "," : ""}\n${JSON.stringify({ ...item, location: tag.location })}`;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const head =
        format === "csv"
          ? csvRow(libraryCsvHeader)
          : `{"exported":${JSON.stringify(now.toISOString())},"tags":[`;
      controller.enqueue(encoder.encode(head));
    },
    async pull(controller) {
      if (!next) return;
      const current = next;
      controller.enqueue(encoder.encode(current.tags.map(rowOf).join("")));
      if (current.token === undefined) {
        next = undefined;
        if (format === "json") controller.enqueue(encoder.encode(`\n],"count":${index}}\n`));
        controller.close();
        return;
      }
      next = await page(current.token);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": format === "csv" ? csvContentType : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(format, now)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * The loader of the library's download routes (`/myshazam/download.csv`, `….json`): signed out,
 * to sign-in and back; a failure answers its status with a plain-text message (a file has no page).
 */
export function libraryDownloadLoader(format: LibraryExportFormat) {
  return async function loader({ params, context, request }: LoaderFunctionArgs): Promise<Response> {
    requireKnownLanguage(params);
    requireAccount(context, request);
    try {
      return await exportLibrary(context, request, format, new Date());
    } catch (caught) {
      if (!(caught instanceof SiteError)) throw caught;
      return new Response(`${caught.type}: ${caught.message}\n`, {
        status: statusOfError(caught.type, caught.status),
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
  };
}
