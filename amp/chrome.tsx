import type { ReactNode } from "react";
import { FooterLinks } from "#app/shell/footer-links.tsx";
import { LanguagePicker } from "#app/shell/language-picker.tsx";
import type { RootData } from "#app/shell/root-data.server.ts";
import { useTranslation } from "#app/shell/strings.ts";
import { featureNames } from "#rules/feature-names.ts";

/**
 * The site's header and footer, as the root renders them, from the root's own data. The search
 * box is a link to the search page, where it works; every link leads to the interactive page.
 */
export function AmpChrome({ root, children }: { root: RootData; children: ReactNode }) {
  const { t } = useTranslation("common");
  const href = (path: string) => `${root.pathPrefix}${path}`;
  const search = root.features.includes(featureNames.search);
  return (
    <>
      <a className="skip-link" href="#main">
        {t("common:skipToContent")}
      </a>
      {root.hideHeaderFooter ? null : (
        <header className="site-header">
          <div className="container site-header__bar">
            <a href={href("/") || "/"} className="brand">
              <span className="brand__mark" aria-hidden="true" />
              <span className="brand__name">{t("common:siteName")}</span>
            </a>
            {search ? (
              <a className="amp-search-link site-header__search" href={href("/search")}>
                {t("common:search.placeholder")}
              </a>
            ) : null}
            <nav className="site-nav" aria-label={t("common:nav.label")}>
              <a href={href("/charts")}>{t("common:nav.charts")}</a>
              <a href={href("/identify")}>{t("common:nav.identify")}</a>
            </nav>
          </div>
        </header>
      )}
      <main id="main" className="site-main">
        <div className="container">{children}</div>
      </main>
      {root.hideHeaderFooter ? null : (
        <footer className="site-footer">
          <div className="container">
            <FooterLinks pathPrefix={root.pathPrefix} />
            <LanguagePicker links={root.languageLinks} current={root.lang} t={t} />
          </div>
        </footer>
      )}
    </>
  );
}
