import { lazy, type ReactElement, Suspense } from "react";
import { useRuntime } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";

const StreamingConnectionSection = lazy(() => import("./streaming-connection-section"));

/**
 * The streaming-service connection section (app/streaming/streaming-connection-section.tsx).
 * Connecting needs the browser runtime, so the section renders once it has started; its code
 * (PKCE, storage, the confirm overlay) is loaded then, not with the page. Until then (and on the
 * server) its place is kept (`PendingConnection`).
 */
export function StreamingConnection() {
  const runtime = useRuntime();
  const pending = <PendingConnection />;
  if (!runtime) return pending;
  return (
    <Suspense fallback={pending}>
      <StreamingConnectionSection pending={pending} />
    </Suspense>
  );
}

/**
 * The unconnected section's own text, unseen and unheard, where the section will be: it arrives
 * after the page's script, and on a slow phone or network it came after the first paint and
 * pushed the listen button below it down (a layout shift of 0.03 at tablet width).
 * Its height follows the language and the width as the section's does.
 */
function PendingConnection(): ReactElement {
  const { t } = useTranslation("connect");
  return (
    <section className="section connect-pending" aria-hidden="true">
      <h2>{t("title")}</h2>
      <p className="muted">{t("pitch")}</p>
      <span className="button">{t("connect")}</span>
    </section>
  );
}
