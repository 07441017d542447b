import type { SiteRuntime } from "#app/shell/browser/runtime.ts";
import { Overlay } from "#app/ui/overlay.tsx";
import { useRootData } from "./root-data";
import { useTranslation } from "./strings";

/**
 * Spec 002 §2 /ux/debugtap: the hidden debug overlay a four-finger touch opens (§9), from the
 * bottom up: which build this is, the feature flags start-up loaded, language, country, webId.
 */
export default function DebugTap({
  runtime,
  onClose,
}: {
  /** The runtime that opened it (passed in: components/runtime.tsx loads this module lazily). */
  runtime: SiteRuntime | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation("app");
  const root = useRootData();
  // Remix's manifest version changes with every build of the browser code.
  const build =
    typeof window === "undefined"
      ? undefined
      : (window as { __remixManifest?: { version?: string } }).__remixManifest?.version;
  const flags = runtime?.featureFlags() ?? [];
  const stored = runtime?.storage.get("webId");
  const rows: [string, string][] = [
    [t("debug.build"), build ?? "—"],
    [t("debug.flags"), flags.length > 0 ? flags.join(", ") : t("debug.noFlags")],
    [t("debug.language"), root?.lang ?? "—"],
    [t("debug.country"), root?.country ?? "—"],
    ["webId", (stored?.ok ? stored.value : undefined) ?? "—"],
  ];
  return (
    <Overlay placement="bottomup" className="debug-tap" labelledBy="debug-tap-title" onClose={onClose}>
      <h2 id="debug-tap-title">{t("debug.title")}</h2>
      <dl className="debug-tap__facts">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="overlay__actions">
        <button type="button" className="button" onClick={onClose}>
          {t("debug.close")}
        </button>
      </div>
    </Overlay>
  );
}
