import type { NavigateFunction } from "@remix-run/react";
import { type ComponentProps, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import {
  audioContextInGesture,
  canDropFiles,
  canShareTabAudio,
  closeAudioContext,
  FILE_MAX_BYTES,
  FILE_MAX_SECONDS,
  type MicrophoneSupport,
  microphoneSupport,
} from "#app/recognition/browser/input-support.ts";
import type {
  CapturedCheckpoint,
  Recognition,
  RecognitionInput,
  RecognitionScreen,
} from "#app/recognition/browser/session.ts";
import { useRuntime } from "#app/shell/runtime.tsx";
import { type Translate, usePageStrings } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import { storeLinks } from "#rules/app-links.ts";
import { localizedPath } from "#rules/path.ts";
import { platformOf } from "#rules/user-agent.ts";
import { type RecognitionMessage, recognitionMessage } from "./recognition-messages";
import {
  ListenButton,
  OtherInputs,
  type RecognitionPanelProps,
  RecognitionStatus,
} from "./recognition-stage";

/**
 * The interstitial (and the overlay it is built on) shows only after a match, when recognition's
 * own code has loaded: it loads with it rather than with the page (decision 027, part 2).
 */
const loadInterstitial = () => import("./recognition-interstitial");
const RecognitionInterstitial = lazy(() =>
  loadInterstitial().then(
    (module) => ({ default: module.RecognitionInterstitial }),
    // Unreachable code (offline) leaves the match's own link rather than an error page.
    () => ({ default: InterstitialLink }),
  ),
);

type InterstitialProps = ComponentProps<typeof import("./recognition-interstitial").RecognitionInterstitial>;

/** What shows when the interstitial's code cannot load: the way to the matched track, as a button. */
function InterstitialLink(props: InterstitialProps) {
  return (
    <p>
      <button type="button" className="button" onClick={props.onFollow ?? props.onClose}>
        {props.labels.follow}
      </button>
    </p>
  );
}

/** The limits of a file, as its message names them. */
const fileLimits = { minutes: FILE_MAX_SECONDS / 60, megabytes: FILE_MAX_BYTES / (1024 * 1024) };

/** What this browser offers, known only in the browser (read after hydration). */
type BrowserInputs = {
  microphone: MicrophoneSupport;
  tabAudio: boolean;
  dropFiles: boolean;
  /** The store of the visitor's platform, else the apps page with both. */
  storeHref: string;
};

/**
 * The web recognition screen (spec 001 §4, 002 §2): the listen button, the four progressive
 * listening messages, microphone permission needed, no match with Try again, error with Refresh,
 * listening stopped by the page going to the background, and the interstitial when the match is
 * the track page the visitor is on. The recognition runs in app/recognition/browser/session.ts;
 * this only shows its screens. Loaded by app/recognition/recognition-panel.tsx after hydration.
 */
export function RecognitionScreens(props: RecognitionPanelProps & { navigate: NavigateFunction }) {
  const { t } = usePageStrings("recognition", props.strings);
  const runtime = useRuntime();
  const runtimeRef = useRef(runtime);
  runtimeRef.current = runtime;
  const { navigate } = props;
  const { Link } = usePrimitives();
  const [screen, setScreen] = useState<RecognitionScreen>({ screen: "idle" });
  const [captured, setCaptured] = useState<CapturedCheckpoint>();
  const recognition = useRef<Recognition>();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [inputs, setInputs] = useState<BrowserInputs>();

  useEffect(() => () => recognition.current?.dispose(), []);
  useEffect(() => {
    const platform = platformOf(navigator.userAgent, navigator.maxTouchPoints);
    setInputs({
      microphone: microphoneSupport(),
      tabAudio: canShareTabAudio(navigator.mediaDevices),
      dropFiles: canDropFiles(),
      storeHref: platform === "web" ? localizedPath(props.lang, "/apps") : storeLinks[platform],
    });
  }, [props.lang]);

  // Decision 057: once answers of recordings kept offline come in, "we'll identify this" is done.
  useEffect(
    () =>
      runtime?.onRecentIdentifications(() =>
        setScreen((shown) => (shown.screen === "kept" ? { screen: "idle" } : shown)),
      ),
    [runtime],
  );

  // Screens with news of their own take the focus, so that it is not lost and their news is read.
  useEffect(() => {
    if (["permission", "nomatch", "error", "interrupted"].includes(screen.screen))
      headingRef.current?.focus();
  }, [screen.screen]);

  async function recognitionOf(): Promise<Recognition> {
    if (recognition.current) return recognition.current;
    if (!runtime) throw new Error("the runtime has not started");
    // Fetched alongside recognition, so a match's interstitial does not wait for the network.
    void loadInterstitial().catch(() => {});
    const { createPageRecognition } = await runtime.importOnDemand(
      "recognition",
      () => import("#app/recognition/browser/page-recognition.ts"),
    );
    recognition.current ??= createPageRecognition({
      lang: props.lang,
      country: props.country,
      screenname: props.screenname,
      capture: props.capture,
      runtime: () => runtimeRef.current,
      navigate: (href, state) => navigate(href, { state }),
      onScreen: setScreen,
      onCapture: setCaptured,
      // Decision 057: the announcement of a recording kept offline, {{title}} left in for its answer.
      offlineTexts: {
        identified: t("common:heardOffline.identified"),
        identifiedUntitled: t("common:heardOffline.identifiedUntitled"),
        unidentified: t("common:heardOffline.unidentified"),
      },
    });
    return recognition.current;
  }

  // A failed load has told the visitor through the info bar; the button stays for another try.
  const listen = (input: RecognitionInput) =>
    void recognitionOf().then(
      (started) => started.start(input),
      () => {
        if (input.kind !== "file") closeAudioContext(input.context);
      },
    );
  // Called in the tap itself: the AudioContext must start inside its gesture (iOS Safari).
  const listenToMicrophone = () => listen({ kind: "microphone", context: audioContextInGesture() });
  const listenToTab = () => listen({ kind: "tab", context: audioContextInGesture() });
  const [dropping, setDropping] = useState(false);
  const cancel = () => recognition.current?.cancel();

  const listening = screen.screen === "listening" || (screen.screen === "permission" && !screen.denied);
  let status = "";
  if (screen.screen === "listening") status = t(`listening.${screen.message}`);
  if (screen.screen === "matched" || screen.screen === "interstitial") status = t("found");
  // Decision 057: heard offline, kept on the device; the listen button stays for another song.
  if (screen.screen === "kept") status = t("offline.kept");

  const message =
    screen.screen === "error" || screen.screen === "interrupted"
      ? recognitionMessage(screen.failure, screen.input)
      : screen.screen === "permission" && screen.denied
        ? recognitionMessage("microphonedenied", "microphone")
        : undefined;
  // Known before any tap: this browser cannot record the microphone (files may still be heard).
  const cannotRecord =
    inputs && inputs.microphone !== "supported"
      ? recognitionMessage(inputs.microphone, "microphone")
      : undefined;

  let panel: ReactNode = null;
  if (screen.screen === "permission" && !screen.denied) {
    panel = (
      <Panel heading={t("permission.title")} headingRef={headingRef} tone="notice">
        <p>{t("permission.prompt")}</p>
      </Panel>
    );
  } else if (screen.screen === "nomatch") {
    panel = (
      <Panel heading={t("noMatch.title")} headingRef={headingRef} tone="notice">
        <p>{t("noMatch.text")}</p>
        <p>
          <Link href={localizedPath(props.lang, "/charts")}>{t("noMatch.charts")}</Link>
        </p>
        <button type="button" className="button" onClick={() => setScreen({ screen: "idle" })}>
          {t("tryAgain")}
        </button>
      </Panel>
    );
  } else if (message && message.heading === undefined) {
    panel = <CannotRecord message={message} storeHref={inputs?.storeHref} t={t} />;
  } else if (message?.heading) {
    panel = (
      <Panel heading={t(message.heading)} headingRef={headingRef} tone={message.tone}>
        <p>{t(message.text, fileLimits)}</p>
        {message.action === "tryAgain" ? (
          <button type="button" className="button" onClick={() => setScreen({ screen: "idle" })}>
            {t("tryAgain")}
          </button>
        ) : message.action === "refresh" ? (
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {t("refresh")}
          </button>
        ) : null}
      </Panel>
    );
  }

  // The runtime starts after hydration. A recognition sends its statistics and keeps its match
  // through it, so the button waits for it: a refused microphone fails at once and would go uncounted.
  const ready = runtime !== undefined;
  // Unable to record, the idle screen says why instead of showing the button (a file's recognition
  // still shows it, to stop).
  const noteInstead = cannotRecord !== undefined && screen.screen === "idle";
  const showButton =
    !noteInstead && screen.screen !== "nomatch" && (message === undefined || message.action === "listen");
  // The other ways to listen stay wherever the listen button would do.
  const choosing =
    screen.screen === "idle" ||
    screen.screen === "kept" ||
    message?.action === "listen" ||
    message?.action === "none";
  const chooseFile = (files: FileList | null) => {
    const file = files?.[0];
    if (file) listen({ kind: "file", file });
  };
  return (
    <div className="recognition__stage" data-screen={screen.screen}>
      {showButton ? (
        <ListenButton
          listening={listening}
          onClick={listening ? cancel : listenToMicrophone}
          disabled={!ready || screen.screen === "matched" || screen.screen === "interstitial"}
          t={t}
        />
      ) : null}
      {noteInstead ? <CannotRecord message={cannotRecord} storeHref={inputs?.storeHref} t={t} /> : null}
      <RecognitionStatus status={status} />
      {screen.screen === "matched" ? (
        <p>
          <Link href={screen.track.href}>{t("openTrack")}</Link>
        </p>
      ) : null}
      {/* Under the button, where the thumb is: what happened, before the other ways to listen. */}
      {panel}
      {props.moreInputs && choosing ? (
        <OtherInputs
          ready={ready}
          tabAudio={inputs?.tabAudio === true}
          dropFiles={inputs?.dropFiles === true}
          dropping={dropping}
          onDropping={setDropping}
          onTab={listenToTab}
          onFiles={chooseFile}
          t={t}
        />
      ) : null}
      {screen.screen === "interstitial" ? (
        <Suspense fallback={null}>
          <RecognitionInterstitial
            track={screen.track}
            labels={{
              label: t("interstitial.label"),
              follow: t("interstitial.follow"),
              close: t("interstitial.close"),
            }}
            onFollow={() => {
              setScreen({ screen: "idle" });
              navigate(screen.track.href, { replace: true });
            }}
            onClose={() => setScreen({ screen: "idle" })}
          />
        </Suspense>
      ) : null}
      {captured ? (
        <CapturedAudio
          captured={captured}
          labels={{
            title: t("capture.title"),
            peaks: t("capture.peaks", {
              peaks: captured.summary.peakCount,
              duration: captured.summary.durationMs,
            }),
            download: t("capture.download", { seconds: captured.seconds }),
          }}
        />
      ) : null}
    </div>
  );
}

/** This browser cannot record: why, and the app's store where the app can (spec 000 §8). */
function CannotRecord(props: { message: RecognitionMessage; storeHref: string | undefined; t: Translate }) {
  return (
    <div className="recognition__note">
      <p>{props.t(props.message.text)}</p>
      {props.message.storeLink && props.storeHref ? (
        <p>
          <a href={props.storeHref}>{props.t("getApp")}</a>
        </p>
      ) : null}
    </div>
  );
}

function Panel(props: {
  heading: string;
  headingRef: React.RefObject<HTMLHeadingElement>;
  tone: "notice" | "error";
  children: ReactNode;
}) {
  return (
    <div className={`recognition__panel recognition__panel--${props.tone}`}>
      <h2 ref={props.headingRef} tabIndex={-1}>
        {props.heading}
      </h2>
      {props.children}
    </div>
  );
}

/** audiocapture=1: the last checkpoint's audio as a WAV and what returnSig made of its signature. */
function CapturedAudio({
  captured,
  labels,
}: {
  captured: CapturedCheckpoint;
  labels: { title: string; peaks: string; download: string };
}) {
  const [href, setHref] = useState<string>();
  useEffect(() => {
    if (!captured.wav) return;
    const url = URL.createObjectURL(new Blob([new Uint8Array(captured.wav)], { type: "audio/wav" }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [captured.wav]);
  return (
    <div className="recognition__capture card">
      <h2>{labels.title}</h2>
      <p>{labels.peaks}</p>
      {href ? (
        <a href={href} download={`tunewave-capture-${captured.seconds}s.wav`}>
          {labels.download}
        </a>
      ) : null}
    </div>
  );
}
