import { type NavigateFunction, useNavigate } from "@remix-run/react";
import { type ComponentType, useEffect, useState } from "react";
import { useRuntime } from "#app/shell/runtime.tsx";
import { usePageStrings } from "#app/shell/strings.ts";
import {
  ListenButton,
  OtherInputs,
  type RecognitionPanelProps,
  RecognitionStatus,
} from "./recognition-stage";

// The screens navigate with the panel's `navigate` (and link through the primitives): Remix imported
// by their lazily loaded chunk left the framework chunk the same size but 0.5 KB larger gzipped on
// every page (measured; decision 027, part 6).
type Screens = ComponentType<RecognitionPanelProps & { navigate: NavigateFunction }>;

/**
 * The screens (app/recognition/recognition-screens.tsx: the states, the messages, what this browser
 * can record) are no part of the first paint, which is the idle stage with the button disabled until
 * the runtime has started (decision 027, part 6). They load when the panel mounts, beside the runtime.
 */
const loadScreens = () =>
  import("./recognition-screens").then((module): Screens => module.RecognitionScreens);

/**
 * The web recognition panel (spec 001 §4, 002 §2). The server and the hydration draw its idle
 * stage; once its screens have loaded they take its place, drawing the same stage first. Until
 * then the button is disabled, as it is until the runtime is there. If they cannot load, the
 * button (once the runtime is there) tries again through the importer, whose info bar says why it
 * fails, with recognition's own code; the next press listens.
 */
export function RecognitionPanel(props: RecognitionPanelProps) {
  const { t } = usePageStrings("recognition", props.strings);
  const runtime = useRuntime();
  const navigate = useNavigate();
  const [screens, setScreens] = useState<{ Screens: Screens } | "failed">();
  const shown = !props.inApp && props.webrec;

  useEffect(() => {
    if (!shown) return;
    let mounted = true;
    loadScreens().then(
      (Screens) => mounted && setScreens({ Screens }),
      () => mounted && setScreens("failed"),
    );
    return () => {
      mounted = false;
    };
  }, [shown]);

  if (props.inApp) return <p className="recognition__note">{t("inApp")}</p>;
  if (!props.webrec) return <p className="recognition__note">{t("common:error.unsupported")}</p>;
  if (screens && screens !== "failed") return <screens.Screens {...props} navigate={navigate} />;

  const retry =
    screens === "failed" && runtime
      ? () =>
          void runtime
            .importOnDemand("recognition", () =>
              loadScreens().then((Screens) => {
                setScreens({ Screens });
                return import("#app/recognition/browser/page-recognition.ts");
              }),
            )
            .catch(() => {})
      : undefined;
  return (
    <div className="recognition__stage" data-screen="idle">
      <ListenButton listening={false} onClick={retry} disabled={!retry} t={t} />
      <RecognitionStatus status="" />
      {props.moreInputs ? (
        <OtherInputs ready={false} tabAudio={false} dropFiles={false} dropping={false} t={t} />
      ) : null}
    </div>
  );
}
