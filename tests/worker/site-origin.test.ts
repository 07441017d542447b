import { SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { qrSvg } from "#origin/routes/events.ts";
import { agent, browser, linkFor, site } from "./browser-jar";

// Decision 030, finding 1: every absolute URL the site hands out (mail links, callbacks, redirect
// URIs, the QR code's address) and every origin check is built from SITE_ORIGIN
// (https://tunewave.test here), never from Host, X-Forwarded-Host or the request URL. Each flow
// that builds one is asked through a hostile host.

const hostile = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" };

async function outboxText(email: string): Promise<string> {
  const answer = await SELF.fetch(`${site}/services/account/outbox`);
  const { mails } = (await answer.json()) as { mails: { to: string; text: string; html: string }[] };
  const mail = mails.find((m) => m.to === email);
  return `${mail?.text ?? ""}\n${mail?.html ?? ""}`;
}

describe("a request that names another host", () => {
  test("the sign-in form mails a link to this site, whatever Host and X-Forwarded-Host say", async () => {
    const answer = await SELF.fetch("https://evil.example/login?index", {
      method: "POST",
      headers: { ...hostile, "content-type": "application/x-www-form-urlencoded", "user-agent": agent },
      body: new URLSearchParams({ email: "victim@example.com", redirect: "/charts" }),
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    const mail = await outboxText("victim@example.com");
    expect(mail).toContain(`${site}/validate-email/web?redirect=%2Fcharts&key=`);
    expect(mail).not.toContain("evil.example");
  });

  test.each([
    ["on the hostile host", "https://evil.example/validate-email/web"],
    ["on this host over http", "http://tunewave.test/validate-email/web"],
    ["on another port", "https://tunewave.test:8443/validate-email/web"],
  ])("the sign-in service refuses a callback %s, even when Host names it", async (_name, callback) => {
    const answer = await SELF.fetch("https://evil.example/services/account/login/email", {
      method: "POST",
      headers: { ...hostile, "content-type": "application/json", "user-agent": agent },
      body: JSON.stringify({
        email: "victim@example.com",
        callback,
        locale: "en",
        userAgent: agent,
        inid: "",
      }),
    });
    expect(answer.status).toBe(400);
    expect(await outboxText("victim@example.com")).toBe("\n");
  });

  test("a callback on this site is mailed on this site's origin, whatever the request's URL", async () => {
    const answer = await SELF.fetch("https://evil.example/services/account/login/email", {
      method: "POST",
      headers: { ...hostile, "content-type": "application/json", "user-agent": agent },
      body: JSON.stringify({
        email: "victim@example.com",
        callback: `${site}/de/validate-email/web_mobile?redirect=/charts`,
        locale: "de",
        userAgent: agent,
        inid: "",
      }),
    });
    expect(answer.status).toBe(202);
    expect(await outboxText("victim@example.com")).toMatch(
      /https:\/\/tunewave\.test\/de\/validate-email\/web_mobile\?redirect=%2Fcharts&key=/,
    );
  });

  test("the concert QR code holds the event's address on this site", async () => {
    const list = await SELF.fetch(`${site}/services/event/v1/GB/shazam-events?filter[isFuture]=true`);
    const [event] = ((await list.json()) as { data: { id: string }[] }).data;
    if (!event) throw new Error("no upcoming event");
    const qr = await SELF.fetch(`https://evil.example/services/qr/event/de/GB/${event.id}/220x220.svg`, {
      headers: hostile,
    });
    expect(qr.status).toBe(200);
    expect(await qr.text()).toBe(await qrSvg(`${site}/de/event/${event.id}`, 220));
  });
});

describe("a same-origin form that also sends X-Forwarded-Host (finding 12)", () => {
  test("is answered as the form it is, not a bare 500", async () => {
    const who = browser();
    const answer = await who.fetch("/login?index", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-host": "evil.example",
      },
      body: new URLSearchParams({ email: "xfh@example.com" }),
    });
    expect(answer.status).toBe(200);
    expect(await linkFor("xfh@example.com")).toMatch(/^\/validate-email\/web\?key=/);
  });
});
