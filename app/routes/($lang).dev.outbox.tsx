import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { outboxMail } from "#app/account/account.server.ts";
import { AccountScreen } from "#app/account/account-screen.tsx";
import { requireKnownLanguage, throwSiteError } from "#app/shell/http.server.ts";
import { pickResources, serverStrings } from "#app/shell/i18n.server.ts";
import { unlistedPageMeta } from "#app/shell/meta.ts";
import { usePageStrings } from "#app/shell/strings.ts";
import accountStyles from "#app/styles/account.css";
import { outboxSchema } from "#rules/account.ts";
import { SiteError } from "#rules/errors.ts";

// The local outbox (docs/local-sign-in.md): the mail the site "sent" while no mail
// transport is configured, newest first, with its links to follow. With a transport configured
// the account service has no outbox and this page is a 404.

export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  requireKnownLanguage(params);
  const answer = await outboxMail(context, request);
  if (answer.status === 404) {
    await answer.body?.cancel();
    throwSiteError(new SiteError("notfound", "No outbox: mail is sent for real"));
  }
  const parsed = v.safeParse(outboxSchema, await answer.json().catch(() => undefined));
  if (!parsed.success) throwSiteError(new SiteError("serviceerror", "The outbox could not be read"));
  const { lang, locale } = context.edge;
  const { t } = serverStrings(lang);
  return {
    title: t("account:pageTitle.outbox"),
    locale,
    mails: parsed.output.mails.map(({ html: _html, ...mail }) => mail),
    strings: pickResources(lang, ["account"]).account,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? unlistedPageMeta(data.title) : []);

/** The mail's text with its web addresses as links (the text part is what a person reads here). */
function TextWithLinks({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/);
  return (
    <pre>
      {parts.map((part, index) =>
        /^https?:\/\//.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order.
          <a key={index} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

export default function Outbox() {
  const { mails, locale, strings } = useLoaderData<typeof loader>();
  const { t } = usePageStrings("account", strings);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
  return (
    <AccountScreen title={t("outbox.title")}>
      <p className="muted">{t("outbox.intro")}</p>
      {mails.length === 0 ? (
        <p>{t("outbox.empty")}</p>
      ) : (
        <ol className="outbox">
          {mails.map((mail) => (
            <li key={mail.id} className="card">
              <h2>{mail.subject}</h2>
              <p className="muted">
                {t("outbox.to")}: {mail.to} · {t("outbox.sent")}: {time.format(mail.sentAt)} UTC
              </p>
              <TextWithLinks text={mail.text} />
            </li>
          ))}
        </ol>
      )}
    </AccountScreen>
  );
}
