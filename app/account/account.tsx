import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useRuntime, useSignedInAccount } from "#app/shell/runtime.tsx";
import { useTranslation } from "#app/shell/strings.ts";
import type { LoginState } from "#rules/account.ts";

/** Where a sign-in started from this page should come back to (not to a sign-in screen). */
function useReturnPath(pathPrefix: string): string | undefined {
  const location = useLocation();
  const path = location.pathname.slice(pathPrefix.length) || "/";
  if (/^\/(login|validate-email|logout|dev\/outbox)(\/|$)/.test(path)) return undefined;
  return location.pathname + location.search;
}

/**
 * The header's account area: "Sign in" for a visitor, the account menu (address, sign out) for a
 * signed-in person. A `<details>` menu: it opens and closes with the keyboard and without script.
 */
export function AccountArea({
  account: serverAccount,
  pathPrefix,
}: {
  account: LoginState | null;
  pathPrefix: string;
}) {
  const { t } = useTranslation("common");
  const returnPath = useReturnPath(pathPrefix);
  const account = useSignedInAccount(serverAccount);
  const runtime = useRuntime();
  const menu = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  // A menu left open would cover the page it led to: each navigation closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation (location key).
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [key]);
  if (!account) {
    const query = returnPath ? `?${new URLSearchParams({ redirect: returnPath })}` : "";
    return (
      <Link className="account-link" to={`${pathPrefix}/login${query}`}>
        {t("account.signIn")}
      </Link>
    );
  }
  return (
    <details className="account-menu" ref={menu}>
      <summary aria-label={t("account.menu")}>
        <span className="account-menu__avatar" aria-hidden="true">
          {account.email.slice(0, 1).toUpperCase()}
        </span>
      </summary>
      <div className="account-menu__panel">
        <p className="account-menu__who">{t("account.signedInAs", { email: account.email })}</p>
        <Link className="account-menu__item" to={`${pathPrefix}/myshazam`}>
          {t("account.library")}
        </Link>
        <Form method="post" action={`${pathPrefix}/logout`} onSubmit={() => runtime?.signOut()}>
          {returnPath ? <input type="hidden" name="redirect" value={returnPath} /> : null}
          <button type="submit" className="button button--quiet">
            {t("account.signOut")}
          </button>
        </Form>
      </div>
    </details>
  );
}
