import { loadLanguages, resources } from "#locales/index.ts";
import { createStrings } from "#locales/translate.ts";
import type { Database } from "#origin/db/rows.ts";
import { emailLinkLifetimeMs } from "#rules/account.ts";
import { escapeHtml } from "#rules/html.ts";
import { defaultLanguageKey, type LanguageKey, languageOf, matchLanguage } from "#rules/languages.ts";
import { formatPrivacyDate } from "#rules/privacy.ts";

// The one mail interface of the site, and its two transports, chosen by MAIL_TRANSPORT (required,
// rules/env.ts): "send_email", Cloudflare's binding (wrangler.toml `[[send_email]]` named MAIL,
// sender MAIL_FROM), or "outbox", the D1 outbox that /dev/outbox shows, which `npm start` and the
// tests ask for by name. Never a default: an outbox nobody asked for publishes every sign-in link.

export type MailMessage = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  /** "outbox": nothing leaves the machine; /dev/outbox shows what was written. */
  readonly transport: "send_email" | "outbox";
  send(message: MailMessage): Promise<void>;
};

/** The structured form of Cloudflare Email Service's `send_email` binding. */
export type MailBinding = {
  send(message: MailMessage & { from: string | { email: string; name: string } }): Promise<unknown>;
};

export function mailerOf(env: {
  DB: D1Database;
  MAIL?: MailBinding;
  MAIL_FROM?: string;
  MAIL_TRANSPORT?: string;
}): Mailer {
  const { MAIL: binding, MAIL_FROM: from, MAIL_TRANSPORT: transport } = env;
  if (transport === "send_email") {
    if (!binding || !from)
      throw new Error("Invalid environment: MAIL_TRANSPORT send_email needs MAIL and MAIL_FROM");
    return {
      transport: "send_email",
      async send(message) {
        await binding.send({ ...message, from: { email: from, name: "Tunewave" } });
      },
    };
  }
  if (transport !== "outbox") throw new Error("Invalid environment: MAIL_TRANSPORT is required");
  return {
    transport: "outbox",
    async send(message) {
      await env.DB.prepare(
        "INSERT INTO outbox (to_address, subject, text_body, html_body, created_at) VALUES (?, ?, ?, ?, ?)",
      )
        .bind(message.to, message.subject, message.text, message.html, Date.now())
        .run();
    },
  };
}

/** One mail the outbox holds. */
export type OutboxMail = {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: number;
};

/** The outbox's 50 newest mails, newest first: what /dev/outbox shows. */
export async function outboxMails(db: Database): Promise<OutboxMail[]> {
  const { results } = await db
    .prepare(
      "SELECT id, to_address, subject, text_body, html_body, created_at FROM outbox ORDER BY id DESC LIMIT 50",
    )
    .all<{
      id: number;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string;
      created_at: number;
    }>();
  return results.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    sentAt: row.created_at,
  }));
}

/** A translator for what the service writes to a person (mail, files), in the language of `locale`. */
export async function serviceStrings(locale: string, namespace: "account" | "privacy") {
  const lang = matchLanguage(locale) ?? defaultLanguageKey;
  await loadLanguages([lang, defaultLanguageKey]);
  const strings = createStrings(
    [lang, defaultLanguageKey].map((key) => ({ lang: key, namespaces: resources[key] ?? {} })),
  );
  return { lang, t: strings.translator(namespace) };
}

const linkMailParts = ["subject", "greeting", "body", "button", "ignore"] as const;

/**
 * A mail whose point is one link: a greeting, what it is, the link as a button, when to ignore it;
 * each part is the string `mail.{part}` of the caller's namespace.
 */
function linkMail(
  to: string,
  lang: LanguageKey,
  partText: (key: string) => string,
  link: string,
): MailMessage {
  const text = Object.fromEntries(linkMailParts.map((part) => [part, partText(`mail.${part}`)])) as Record<
    (typeof linkMailParts)[number],
    string
  >;
  const plain = [text.greeting, "", text.body, "", link, "", text.ignore, "", "Tunewave"].join("\n");
  const { dir } = languageOf(lang);
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(text.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d1d1f">
<div style="max-width:480px;margin:0 auto;background:#fff;border-radius:16px;padding:32px">
<p style="font-size:20px;font-weight:800;margin:0 0 24px">Tunewave</p>
<p style="margin:0 0 12px">${escapeHtml(text.greeting)}</p>
<p style="margin:0 0 24px;line-height:1.5">${escapeHtml(text.body)}</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#0a5cd5;color:#fff;text-decoration:none;font-weight:700;padding:12px 20px;border-radius:999px">${escapeHtml(text.button)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#555;word-break:break-all">${escapeHtml(link)}</p>
<p style="margin:24px 0 0;font-size:13px;color:#555;line-height:1.5">${escapeHtml(text.ignore)}</p>
</div></body></html>`;
  return { to, subject: text.subject, text: plain, html };
}

/** The sign-in mail, in the language of the `locale` the browser sent: text and HTML. */
export async function signInMail(to: string, locale: string, link: string): Promise<MailMessage> {
  const { lang, t } = await serviceStrings(locale, "account");
  const minutes = emailLinkLifetimeMs / 60_000;
  return linkMail(to, lang, (key) => t(key, { minutes }), link);
}

/** The data download mail (decision 020): the link to the prepared archive, and until when it works. */
export async function dataDownloadMail(
  to: string,
  locale: string,
  link: string,
  expiresAt: number,
): Promise<MailMessage> {
  const { lang, t } = await serviceStrings(locale, "privacy");
  const until = formatPrivacyDate(languageOf(lang).locale, expiresAt);
  return linkMail(to, lang, (key) => t(key, { email: to, date: until }), link);
}
