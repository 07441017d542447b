import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { lazy, Suspense } from "react";
import Home, { loader as homeLoader, meta as homeMeta } from "#app/routes/($lang)._index/route.tsx";
import { useRuntime } from "#app/shell/runtime.tsx";
import { localizedPath } from "#rules/path.ts";

const DebugTap = lazy(() => import("#app/shell/debug-tap.tsx"));

/**
 * `/ux/debugtap` (spec 002 §2): the debug overlay a four-finger touch opens anywhere, as an
 * address: visited directly it opens over the home page, and closing it leaves the home page.
 */
export async function loader(args: LoaderFunctionArgs) {
  return { ...(await homeLoader(args)), home: localizedPath(args.context.edge.lang, "/") };
}

export const meta: MetaFunction<typeof loader> = (args) => [
  ...homeMeta(args as Parameters<typeof homeMeta>[0]),
  { name: "robots", content: "noindex" },
];

export default function UxDebugTap() {
  const { home } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const runtime = useRuntime();
  return (
    <>
      <Home />
      <Suspense fallback={null}>
        <DebugTap runtime={runtime} onClose={() => navigate(home, { replace: true })} />
      </Suspense>
    </>
  );
}
