import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { titledScreen } from "#app/information/information-page.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import type { ConnectOutcome } from "#app/streaming/browser/connect.ts";
import connectStyles from "#app/styles/connect.css";
import { localizedPath } from "#rules/path.ts";

// Spec 002 §2 "/applemusic/signin/complete: Callback path of the streaming-service connect flow".
// The authorization server sends the popup here with `code` and `state` (or `error`). The code is
// exchanged in the browser, which holds the PKCE verifier (app/streaming/browser/connect.ts); the server
// never sees either. The outcome goes to the page that opened the popup, which shows the confirm
// overlay, and the popup closes 2 s later. Opened without an opener, the page says it itself.

export const links = () => [{ rel: "stylesheet", href: connectStyles }];

export function loader({ params, context }: LoaderFunctionArgs) {
  return {
    ...titledScreen({ params, context }, "connect", "connect:callback.title"),
    home: localizedPath(context.edge.lang, "/"),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  // The code is in the address: no other site learns it through a Referer.
  return data ? unlistedPageMeta(data.title, "no-referrer") : [];
};

export default function ConnectCallback() {
  const { title, home, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("connect", strings);
  const runtime = useRuntime();
  const [done, setDone] = useState<{ result: ConnectOutcome; reported: boolean }>();

  useEffect(() => {
    if (!runtime) return;
    const callback = new URLSearchParams(window.location.search);
    // The code leaves the address bar and the history at once.
    window.history.replaceState(null, "", window.location.pathname);
    // The exchange's code (PKCE, oauth4webapi, storage) loads with the runtime, after the page has
    // shown (decision 027). Unable to load, the exchange has failed: the page says so itself.
    void import("#app/streaming/browser/connect.ts").then(
      ({ completeConnect, connectStatistic, reportConnect }) =>
        completeConnect(runtime.storage, callback, (input, init) => fetch(input, init)).then((result) => {
          const statistic = connectStatistic(result);
          if (statistic) void runtime.beacons.send(statistic);
          setDone({ result, reported: reportConnect(window, result) });
        }),
      () => setDone({ result: { outcome: "failed", error: "unable to load" }, reported: false }),
    );
  }, [runtime]);

  const message = done ? t(`callback.${done.result.outcome}`) : t("callback.working");
  return (
    <section className="consent card" aria-labelledby="connect-callback-title">
      <h1 id="connect-callback-title">{title}</h1>
      <p role="status" data-connect-outcome={done?.result.outcome}>
        {message}
      </p>
      {done?.reported ? <p className="muted">{t("callback.closing")}</p> : null}
      {done && !done.reported ? (
        <a className="button" href={home}>
          {t("callback.home")}
        </a>
      ) : null}
      <noscript>
        <p>{t("callback.noScript")}</p>
      </noscript>
    </section>
  );
}
