import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import * as v from "valibot";
import Home, { loader as homeLoader, meta as homeMeta } from "#app/routes/($lang)._index/route.tsx";
import { throwSiteError } from "#app/shell/http.server.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { Overlay } from "#app/ui/overlay.tsx";
import { SiteError } from "#rules/errors.ts";
import { localizedPath } from "#rules/path.ts";

/** Spec 002 §2 "/ux/dialog: a dialog with title, body and buttons; the default is one OK button". */
const dialogSchema = v.object({
  title: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(120))),
  body: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000))),
  buttons: v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(40))), v.maxLength(3)),
});

/**
 * `/ux/dialog?title=…&body=…&button=…`: the dialog overlay as an address. Visited directly it
 * opens over the home page; closing it (any button, Escape, a click outside) leaves the home page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const dialog = v.safeParse(dialogSchema, {
    title: search.get("title") ?? undefined,
    body: search.get("body") ?? undefined,
    buttons: search.getAll("button"),
  });
  if (!dialog.success) throwSiteError(new SiteError("invalidparam", v.summarize(dialog.issues)));
  return {
    ...(await homeLoader(args)),
    dialog: dialog.output,
    home: localizedPath(args.context.edge.lang, "/"),
  };
}

// An overlay over the home page: nothing of its own to index.
export const meta: MetaFunction<typeof loader> = (args) => [
  ...homeMeta(args as Parameters<typeof homeMeta>[0]),
  { name: "robots", content: "noindex" },
];

export default function UxDialog() {
  const { dialog, home } = useLoaderData<typeof loader>();
  const { t } = useTranslation("app");
  const navigate = useNavigate();
  const close = () => navigate(home, { replace: true });
  const buttons = dialog.buttons.length > 0 ? dialog.buttons : [t("dialog.ok")];
  return (
    <>
      <Home />
      <Overlay
        placement="modal"
        labelledBy="ux-dialog-title"
        describedBy={dialog.body ? "ux-dialog-body" : undefined}
        onClose={close}
      >
        <h2 id="ux-dialog-title">{dialog.title ?? t("dialog.title")}</h2>
        {dialog.body ? <p id="ux-dialog-body">{dialog.body}</p> : null}
        <div className="overlay__actions">
          {buttons.map((label) => (
            <button key={label} type="button" className="button" onClick={close}>
              {label}
            </button>
          ))}
        </div>
      </Overlay>
    </>
  );
}
