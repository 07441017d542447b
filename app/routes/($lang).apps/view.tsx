import { useTranslation } from "#app/shell/strings.ts";
import { Hero } from "#app/ui/hero.tsx";
import { usePrimitives } from "#app/ui/primitives.tsx";

type Store = "ios" | "android";

const badgeKey = { ios: "appStore", android: "googlePlay" } as const;

/** The apps: a prompt for the visitor's device first, each store's badge, and the website. */
export function AppsView({
  page,
}: {
  page: { platform: string; stores: readonly { store: Store; href: string }[]; identifyHref: string };
}) {
  const { t } = useTranslation("apps");
  const { Link } = usePrimitives();
  return (
    <article className="apps-page">
      <Hero
        id="apps-title"
        title={t("title")}
        text={t("intro")}
        actions={[{ href: page.identifyHref, label: t("identify") }]}
      />
      <ul className="store-cards">
        {page.stores.map(({ store, href }) => (
          <li
            key={store}
            className={store === page.platform ? "card store-card store-card--yours" : "card store-card"}
          >
            {store === page.platform ? <p className="store-card__yours">{t("forYou")}</p> : null}
            <h2>{t(store)}</h2>
            <p>{t(`${store}Text`)}</p>
            <Link href={href} external className={`store-badge store-badge--${store}`} data={{ store }}>
              {t(badgeKey[store])}
            </Link>
          </li>
        ))}
        <li className={page.platform === "web" ? "card store-card store-card--yours" : "card store-card"}>
          <h2>{t("web")}</h2>
          <p>{t("webText")}</p>
          <Link href={page.identifyHref} className="store-badge">
            {t("identify")}
          </Link>
        </li>
      </ul>
    </article>
  );
}
