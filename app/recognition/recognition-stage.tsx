import type { Translate } from "#app/shell/strings.ts";
import type { LanguageKey } from "#rules/languages.ts";
import type { CaptureOptions } from "./capture-options";

// What the recognition panel's first paint (recognition-panel.tsx) and its screens
// (recognition-screens.tsx) both draw: the idle stage's parts.

export type RecognitionPanelProps = {
  lang: LanguageKey;
  country: string;
  capture: CaptureOptions;
  /** Spec 002 §1: recognition in the browser, not inside the native app's webview. */
  inApp: boolean;
  /** The `webrec` flag: off, the page says recognition is not supported on the website. */
  webrec: boolean;
  /** The beacon screenname and navigation source of the page the panel is on. */
  screenname: string;
  /** How long a recognition listens at most (the last checkpoint), for the intro text. */
  listenSeconds: number;
  strings: Record<string, unknown>;
  /** Also a file and this browser's audio (the identify page). */
  moreInputs?: boolean;
};

/** The listen button (Stop while listening), the first paint's as the screens'. */
export function ListenButton(props: {
  listening: boolean;
  onClick: (() => void) | undefined;
  disabled: boolean;
  t: Translate;
}) {
  return (
    <button
      type="button"
      className="recognition__button"
      data-listening={props.listening ? "true" : undefined}
      onClick={props.onClick}
      disabled={props.disabled}
      aria-describedby="recognition-status"
    >
      <span className="recognition__mark" aria-hidden="true" />
      <span className="recognition__button-label">
        {props.listening ? props.t("stop") : props.t("listen")}
      </span>
    </button>
  );
}

/** What the recognition is doing, read out as it changes. */
export function RecognitionStatus(props: { status: string }) {
  return (
    <p id="recognition-status" className="recognition__status" role="status" aria-live="polite">
      {props.status}
    </p>
  );
}

/** The other ways to listen (the identify page): this browser's audio, a file chosen or dropped. */
export function OtherInputs(props: {
  ready: boolean;
  tabAudio: boolean;
  dropFiles: boolean;
  dropping: boolean;
  onDropping?: (dropping: boolean) => void;
  onTab?: () => void;
  onFiles?: (files: FileList | null) => void;
  t: Translate;
}) {
  const { ready, t } = props;
  return (
    <fieldset
      className="recognition__inputs"
      data-dropping={props.dropping ? "true" : undefined}
      onDragOver={(event) => {
        if (!ready) return;
        event.preventDefault();
        props.onDropping?.(true);
      }}
      onDragLeave={() => props.onDropping?.(false)}
      onDrop={(event) => {
        event.preventDefault();
        props.onDropping?.(false);
        if (ready) props.onFiles?.(event.dataTransfer.files);
      }}
    >
      <legend className="visually-hidden">{t("inputs")}</legend>
      {props.tabAudio ? (
        <button type="button" className="button recognition__input" disabled={!ready} onClick={props.onTab}>
          {t("tab.listen")}
        </button>
      ) : null}
      <label className="button recognition__input" data-disabled={ready ? undefined : "true"}>
        {t("file.choose")}
        <input
          type="file"
          className="visually-hidden"
          accept="audio/*,video/*"
          disabled={!ready}
          onChange={(event) => {
            props.onFiles?.(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
      </label>
      <p className="recognition__drop muted">{props.dropFiles ? t("file.drop") : t("file.kept")}</p>
    </fieldset>
  );
}
