import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { loadConcertList } from "#app/concerts/events.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { loadPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { absoluteUrl, requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { usePageStrings, useTranslation } from "#app/shell/strings.ts";
import styles from "#app/styles/concerts.css";
import { type ConcertList, ConcertRefineForm, ConcertRefineLink, ConcertsView, listHref } from "./view";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

// The list is sorted from the edge's cell of the visitor and dated in their time zone: both are in
// the document cache's key for this page (edge/document-cache.ts `pageVariantOf`), so it is shared.
export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const url = new URL(request.url);
  const list = await loadPage(() => loadConcertList(context, url.searchParams, Date.now()));
  const { t } = serverStrings(context.edge.lang);
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: t("concerts:pageTitle"),
    description: t("concerts:description"),
    type: "website",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "ItemList",
      itemListElement: list.groups
        .flatMap((g) => g.cards)
        .map((card, i) => ({
          "@type": "ListItem",
          position: i + 1,
          url: absoluteUrl(context, card.href),
          name: card.name,
        })),
    },
  };
  return { list, meta, strings: pickResources(context.edge.lang, ["concerts"]).concerts };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

/** AMP has no scripts and no forms of ours: no Near Me button, and a link to the refining form. */
export const ampView: AmpView<typeof loader> = ({ data }) => (
  <ConcertsView list={data.list} nearMe={null} refine={<ConcertRefineLink list={data.list} />} />
);

/**
 * Near Me: the browser's location, asked for only when the person clicks. Refused (or not
 * available), the spec's message; given, the list by distance from it, remembered as `maploc`.
 * Without JavaScript the link lists by the edge's idea of where the visitor is.
 */
function NearMe({ list }: { list: ConcertList }) {
  const { t } = useTranslation("concerts");
  const navigate = useNavigate();
  const [state, setState] = useState<"idle" | "asking" | "refused">("idle");
  const fallback = listHref(list, { in: "near", lat: undefined, lng: undefined });
  const ask = (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (!("geolocation" in navigator)) return;
    event.preventDefault();
    setState("asking");
    // Storage's code and schemas load with the click, while the browser asks for the location: a
    // first visit that never asks does not pay for them. Without it the list still comes.
    const storage = import("#app/shell/browser/storage.ts").catch(() => undefined);
    navigator.geolocation.getCurrentPosition(
      async ({ coords }) => {
        const lat = coords.latitude.toFixed(4);
        const lng = coords.longitude.toFixed(4);
        (await storage)?.createSiteStorage().set("maploc", { lat: Number(lat), lng: Number(lng) });
        setState("idle");
        navigate(listHref(list, { in: "near", lat, lng }));
      },
      () => setState("refused"),
      { maximumAge: 600_000, timeout: 15_000 },
    );
  };
  return (
    <div className="near-me">
      <a className="button" href={fallback} onClick={ask} aria-busy={state === "asking"}>
        {t("nearMe")}
      </a>
      {state === "refused" ? (
        <p className="near-me__refused" role="alert">
          {t("nearMeUnavailable")}
        </p>
      ) : null}
    </div>
  );
}

export default function ConcertsRoute() {
  const { list, strings } = useLoaderData<typeof loader>();
  usePageStrings("concerts", strings);
  return (
    <ConcertsView list={list} nearMe={<NearMe list={list} />} refine={<ConcertRefineForm list={list} />} />
  );
}
