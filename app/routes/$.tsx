import { throwSiteError } from "#app/shell/http.server.ts";
import { SiteError } from "#rules/errors.ts";

// Any path no route claims: the site's own not-found page with status 404.
export function loader(): never {
  throwSiteError(new SiteError("notfound", "no such page"));
}

export default function NotFound() {
  return null;
}
