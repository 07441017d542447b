import { usePrimitives } from "#app/ui/primitives.tsx";
import { useTranslation } from "./strings";

/** The site's own pages about itself, in the footer of every page (React and AMP). */
const footerPages = [
  ["company", "/company"],
  ["careers", "/careers"],
  ["apps", "/apps"],
  ["developers", "/developers"],
  ["verify", "/verify"],
  ["survey", "/survey"],
  ["terms", "/terms"],
  ["privacy", "/privacy"],
] as const;

export function FooterLinks({ pathPrefix }: { pathPrefix: string }) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <ul className="site-footer__links">
      {footerPages.map(([key, path]) => (
        <li key={key}>
          <Link href={`${pathPrefix}${path}`}>{t(`footer.${key}`)}</Link>
        </li>
      ))}
    </ul>
  );
}
