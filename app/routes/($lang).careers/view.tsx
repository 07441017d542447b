import { useTranslation } from "#app/shell/strings.ts";
import { usePrimitives } from "#app/ui/primitives.tsx";
import type { CareersRole } from "#rules/careers.ts";

/** Who we are as a team, and the open roles (their text in English, the team's language). */
export function CareersView({
  page,
}: {
  page: { roles: readonly (CareersRole & { posted: string; applyHref: string })[] };
}) {
  const { t } = useTranslation("careers");
  const { Link } = usePrimitives();
  return (
    <article className="site-page" aria-labelledby="careers-title">
      <h1 id="careers-title">{t("title")}</h1>
      <p className="site-page__intro">{t("intro")}</p>
      <section aria-labelledby="careers-roles">
        <h2 id="careers-roles">{t("openRoles")}</h2>
        {page.roles.length === 0 ? (
          <p>{t("noRoles")}</p>
        ) : (
          <>
            <p className="site-form__hint">{t("languageNote")}</p>
            <ul className="role-list">
              {page.roles.map((role) => (
                <li key={role.id} id={role.id} className="card role">
                  <h3 lang="en">{role.title}</h3>
                  <dl className="site-page__facts">
                    <dt>{t("team")}</dt>
                    <dd lang="en">{role.team}</dd>
                    <dt>{t("location")}</dt>
                    <dd lang="en">{role.location}</dd>
                  </dl>
                  <p lang="en">{role.summary}</p>
                  <p className="role__foot">
                    <span className="muted">{t("posted", { date: role.posted })}</span>
                    <Link href={role.applyHref} external label={`${t("apply")}: ${role.title}`}>
                      {t("apply")}
                    </Link>
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <p>{t("howToApply")}</p>
    </article>
  );
}
