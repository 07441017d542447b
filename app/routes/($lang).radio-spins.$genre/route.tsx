import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadLocations } from "#app/charts/chart-address.server.ts";
import { loadRadioChart } from "#app/charts/radio-chart.server.ts";
import type { AmpView } from "#app/shell/amp-view.ts";
import { loadPage, requireKnownLanguage } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { dateTimeFormat, numberFormat } from "#app/shell/intl.server.ts";
import { requestMeta } from "#app/shell/meta.server.ts";
import { type PageMeta, pageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import { trackSummaryOfPayload } from "#app/shell/view.ts";
import chartsStyles from "#app/styles/charts.css";
import { radioSpinsPath } from "#rules/addresses.ts";
import { localizedPath } from "#rules/path.ts";
import { RadioSpinsView } from "./view";

// Spec 001 §1 "radio airplay charts per genre", §2 "radio spins: one page per genre": a genre's
// most played catalogue tracks on the radio this week, from the embedded origin's airplay rule
// (deterministic, like the other charts), with links to the other genres' pages. AMP form too.

export const links = () => [{ rel: "stylesheet", href: chartsStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const { lang, locale } = context.edge;
  const genre = params.genre ?? "";
  const [chart, locations] = await loadPage(() =>
    Promise.all([loadRadioChart(context, genre), loadLocations(context)]),
  );
  // One address per genre: /radio-spins/Rock → /radio-spins/rock.
  if (genre !== chart.genre.urlName)
    throw redirect(localizedPath(lang, radioSpinsPath(chart.genre.urlName)), 301);
  const { t } = serverStrings(lang);
  const title = t("radio:title", { genre: chart.genre.name });
  const week = dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(chart.week));
  const meta: PageMeta = {
    ...requestMeta(context, request),
    title: `${title} | Tunewave`,
    description: t("radio:description", { genre: chart.genre.name }),
    type: "music.playlist",
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "MusicPlaylist",
      name: title,
      numTracks: chart.entries.length,
    },
  };
  const numbers = numberFormat(locale);
  const page = {
    title,
    week,
    tracks: chart.entries.map((entry) => trackSummaryOfPayload(entry.track, lang)),
    spins: chart.entries.map((entry) => t("radio:spins", { value: numbers.format(entry.spins) })),
    genres: locations.global.genres
      .filter((other) => other.count > 0)
      .map((other) => ({
        name: other.name,
        href: localizedPath(lang, radioSpinsPath(other.urlName)),
        current: other.urlName === chart.genre.urlName,
      })),
    chartsHref: localizedPath(lang, "/charts"),
  };
  return { page, meta, strings: pickResources(lang, ["radio"]).radio };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? pageMeta(data.meta) : []);

export const ampView: AmpView<typeof loader> = ({ data }) => <RadioSpinsView page={data.page} />;

export default function RadioSpins() {
  const { page, strings } = useLoaderData<typeof loader>();
  usePageStrings("radio", strings);
  return <RadioSpinsView page={page} />;
}
