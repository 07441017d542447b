import { Link, NavLink } from "@remix-run/react";
import { AccountArea } from "#app/account/account.tsx";
import { SearchBox } from "#app/search/search-box.tsx";
import { featureNames } from "#rules/feature-names.ts";
import { FooterLinks } from "./footer-links";
import { LanguagePicker } from "./language-picker";
import type { RootData } from "./root-data";
import { useTranslation } from "./strings";

export function SiteHeader({ data }: { data: RootData }) {
  const { t } = useTranslation("common");
  const href = (path: string) => `${data.pathPrefix}${path}`;
  const search = data.features.includes(featureNames.search);
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Link to={href("/") || "/"} className="brand">
          <span className="brand__mark" aria-hidden="true" />
          <span className="brand__name">{t("siteName")}</span>
        </Link>
        {search ? <SearchBox lang={data.lang} country={data.country} pathPrefix={data.pathPrefix} /> : null}
        <nav className="site-nav" aria-label={t("nav.label")}>
          <NavLink to={href("/charts")}>{t("nav.charts")}</NavLink>
          <NavLink to={href("/concerts")}>{t("nav.concerts")}</NavLink>
          <NavLink to={href("/identify")}>{t("nav.identify")}</NavLink>
        </nav>
        <AccountArea account={data.account} pathPrefix={data.pathPrefix} />
      </div>
    </header>
  );
}

export function SiteFooter({ data }: { data: RootData }) {
  const { t } = useTranslation("common");
  return (
    <footer className="site-footer">
      <div className="container">
        <FooterLinks pathPrefix={data.pathPrefix} />
        <LanguagePicker links={data.languageLinks} current={data.lang} t={t} />
      </div>
    </footer>
  );
}
