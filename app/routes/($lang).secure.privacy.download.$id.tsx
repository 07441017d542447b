import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadSecurePage } from "#app/account/account.server.ts";
import { useSecureStatusCheck } from "#app/account/secure-status.tsx";
import PrivacyDownloadFile, {
  headers,
  links,
  meta,
  loader as pageLoader,
} from "#app/routes/($lang).privacy.download.$id/route.tsx";

// The secure address of the data download's mailed link (spec 000 §2 "/secure/..."): the page
// behind the sign-in check (`loadSecurePage`), its canonical address /privacy/download/{id}.

export function loader(args: LoaderFunctionArgs) {
  return loadSecurePage(args, pageLoader);
}

export { headers, links, meta };

export default function SecurePrivacyDownloadFile() {
  useSecureStatusCheck();
  return <PrivacyDownloadFile />;
}
