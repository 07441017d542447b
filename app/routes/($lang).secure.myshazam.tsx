import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAccount } from "#app/account/account.server.ts";
import MyLibrary, {
  action,
  loader as libraryLoader,
  links,
  meta,
} from "#app/routes/($lang).myshazam._index/route.tsx";

// Spec 000 §2 "/secure/... : secure page types are loaded from a secure path after a single-sign-on
// login check": the library behind the check. Signed out, the person is sent to sign in and back
// here (`requireAccount`); signed in, it is the library page itself, its canonical address /myshazam.

export async function loader(args: LoaderFunctionArgs) {
  requireAccount(args.context, args.request);
  return libraryLoader(args);
}

export { action, links, meta };
export default MyLibrary;
