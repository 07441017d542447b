import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadSecurePage } from "#app/account/account.server.ts";
import { useSecureStatusCheck } from "#app/account/secure-status.tsx";
import PrivacyDownload, {
  action,
  links,
  meta,
  loader as pageLoader,
} from "#app/routes/($lang).privacy.download._index/route.tsx";

// The secure address of the data download request (spec 000 §2 "/secure/..."): the page behind the
// sign-in check (`loadSecurePage`), its canonical address /privacy/download.

export function loader(args: LoaderFunctionArgs) {
  return loadSecurePage(args, pageLoader);
}

export { action, links, meta };

export default function SecurePrivacyDownload() {
  useSecureStatusCheck();
  return <PrivacyDownload />;
}
