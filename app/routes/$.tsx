import { throwSiteError } from "~/http.server";
import { SiteError } from "../../rules/errors";

// Any path no route claims: the site's own not-found page with status 404.
export function loader(): never {
  throwSiteError(new SiteError("notfound", "no such page"));
}

export default function NotFound() {
  return null;
}
