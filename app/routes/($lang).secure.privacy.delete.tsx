import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadSecurePage } from "#app/account/account.server.ts";
import { useSecureStatusCheck } from "#app/account/secure-status.tsx";
import PrivacyDelete, {
  action,
  links,
  meta,
  loader as pageLoader,
} from "#app/routes/($lang).privacy.delete/route.tsx";

// The secure address of account deletion (spec 000 §2 "/secure/..."): the page behind the sign-in
// check (`loadSecurePage`), its canonical address /privacy/delete.

export function loader(args: LoaderFunctionArgs) {
  return loadSecurePage(args, pageLoader);
}

export { action, links, meta };

export default function SecurePrivacyDelete() {
  useSecureStatusCheck();
  return <PrivacyDelete />;
}
