import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadSecurePage } from "#app/account/account.server.ts";
import { useSecureStatusCheck } from "#app/account/secure-status.tsx";
import PrivacyDataCategories, {
  links,
  meta,
  loader as pageLoader,
} from "#app/routes/($lang).privacy.data-categories/route.tsx";

// The secure address of the data categories held on the account (spec 000 §2 "/secure/..."): the
// page behind the sign-in check (`loadSecurePage`), its canonical address /privacy/data-categories.

export function loader(args: LoaderFunctionArgs) {
  return loadSecurePage(args, pageLoader);
}

export { links, meta };

export default function SecurePrivacyDataCategories() {
  useSecureStatusCheck();
  return <PrivacyDataCategories />;
}
