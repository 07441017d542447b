import { useTranslation } from "react-i18next";
import { usePrimitives } from "~/components/primitives";

/** The footer's links to the site's own pages about itself (only those that exist). */
export function FooterLinks({ pathPrefix }: { pathPrefix: string }) {
  const { t } = useTranslation("common");
  const { Link } = usePrimitives();
  return (
    <ul className="site-footer__links">
      <li>
        <Link href={`${pathPrefix}/company`}>{t("footer.company")}</Link>
      </li>
      <li>
        <Link href={`${pathPrefix}/privacy`}>{t("footer.privacy")}</Link>
      </li>
    </ul>
  );
}
