import { useRouteLoaderData } from "@remix-run/react";
import { type ReactElement, useEffect, useState } from "react";
import { membershipOf } from "#app/bridge/browser/in-app.ts";
import { connectionState } from "#app/shell/browser/storage.ts";
import type { RootData } from "#app/shell/root-data.ts";
import { useRuntime, useUserFlags } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import {
  beginConnect,
  type ConnectOutcome,
  disconnect,
  onConnectMessage,
} from "#app/streaming/browser/connect.ts";
import { Overlay } from "#app/ui/overlay.tsx";
import type { ConnectionState } from "#rules/streaming.ts";

/**
 * The streaming-service connection where a person listens (spec 001 §4 "Streaming-service
 * connection": connected, unconnected, expired sign-in, error with Try Again / Cancel; spec 002
 * §4). Connecting needs the browser (PKCE happens there), so nothing renders on the server and
 * hydration matches; it follows the connection in every tab (the storage event). The confirm
 * overlay of spec 002 §2 (`/applemusic/signin/complete/confirm`: modal, takeover, masked) is an
 * overlay: the page behind it is inert and masked, and on a phone it takes the screen. Only its
 * buttons close it. Loaded on demand by app/streaming/streaming-connection.tsx.
 */
export default function StreamingConnectionSection({ pending }: { pending: ReactElement }) {
  const runtime = useRuntime();
  const flags = useUserFlags();
  const root = useRouteLoaderData<RootData>("root");
  const { t, strings } = useTranslation("connect");
  const [state, setState] = useState<ConnectionState>();
  const [blocked, setBlocked] = useState(false);
  const [result, setResult] = useState<Exclude<ConnectOutcome, { outcome: "refused" }>>();

  useEffect(() => {
    if (!runtime) return;
    const read = () => setState(connectionState(runtime.storage));
    read();
    const stopConnection = runtime.storage.onConnection(read);
    // The popup's callback page sends its own statistics; here the outcome is shown.
    const stopMessages = onConnectMessage(window, (outcome) => {
      read();
      if (outcome.outcome !== "refused") setResult(outcome);
    });
    return () => {
      stopConnection();
      stopMessages();
    };
  }, [runtime]);

  // Without its strings or the runtime there is nothing honest to show; a member of the service
  // (the app's member flag) is connected through the app already. Until the connection is read,
  // the section's place is kept.
  if (
    !runtime ||
    !root ||
    (flags && membershipOf(flags.appleMusicMembership).member) ||
    !strings.hasNamespace("connect")
  ) {
    return null;
  }
  if (state === undefined) return pending;
  const { streaming, pageType } = root;

  async function connect() {
    if (!runtime) return;
    setBlocked(false);
    const popup = await beginConnect(window, runtime.storage, streaming, {
      screenname: pageType,
      beaconId: crypto.randomUUID(),
    });
    if (!popup) setBlocked(true);
  }

  function closeDialog() {
    setResult(undefined);
  }

  return (
    <section className="section connect" aria-labelledby="connect-title" data-connection={state}>
      <h2 id="connect-title">{t("title")}</h2>
      {state === "connected" ? (
        <>
          <p className="connect__status">
            <span aria-hidden="true" className="connect__mark">
              ✓
            </span>{" "}
            {t("connected")}
          </p>
          <button
            type="button"
            className="button button--quiet"
            onClick={() =>
              void disconnect(runtime.storage, streaming.clientId, (input, init) => fetch(input, init))
            }
          >
            {t("disconnect")}
          </button>
        </>
      ) : (
        <>
          <p
            className={state === "expired" ? "connect__status" : "muted"}
            role={state === "expired" ? "status" : undefined}
          >
            {state === "expired" ? t("expired") : t("pitch")}
          </p>
          <button type="button" className="button" onClick={() => void connect()}>
            {state === "expired" ? t("connectAgain") : t("connect")}
          </button>
        </>
      )}
      {blocked ? (
        <p className="connect__problem" role="alert">
          {t("popupBlocked")}
        </p>
      ) : null}
      {result ? (
        <Overlay
          placement="takeover"
          modal
          masked
          className="connect-dialog"
          labelledBy="connect-dialog-title"
          describedBy="connect-dialog-body"
          onClose={closeDialog}
        >
          {result.outcome === "connected" ? (
            <>
              <h2 id="connect-dialog-title">{t("confirm.connectedTitle")}</h2>
              <p id="connect-dialog-body">{t("confirm.connectedBody")}</p>
              <div className="connect-dialog__actions">
                <button type="button" className="button" onClick={closeDialog}>
                  {t("confirm.done")}
                </button>
              </div>
            </>
          ) : (
            <>
              <h2 id="connect-dialog-title">{t("confirm.errorTitle")}</h2>
              <p id="connect-dialog-body">{t("confirm.errorBody")}</p>
              <div className="connect-dialog__actions">
                <button type="button" className="button button--quiet" onClick={closeDialog}>
                  {t("confirm.cancel")}
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    closeDialog();
                    void connect();
                  }}
                >
                  {t("confirm.tryAgain")}
                </button>
              </div>
            </>
          )}
        </Overlay>
      ) : null}
    </section>
  );
}
