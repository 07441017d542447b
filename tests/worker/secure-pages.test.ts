import { expect, test } from "vitest";
import { browser, signIn } from "./browser-jar";

// Spec 000 §2 "/secure/... : secure page types are loaded from a secure path after a single-sign-on
// login check": every page of the signed-in person's own has its /secure address.

const securePages: [string, string][] = [
  ["/secure/myshazam", "/myshazam"],
  ["/secure/privacy/download", "/privacy/download"],
  ["/secure/privacy/delete", "/privacy/delete"],
  ["/secure/privacy/data-categories", "/privacy/data-categories"],
];

let people = 0;

const signedOutPaths: string[] = [
  ...securePages.map(([path]) => path),
  "/secure/privacy/download/AAAAAAAAAAAAAAAAAAAAAA",
  "/de/secure/privacy/delete",
];

test.each(signedOutPaths)(
  "%s signed out: the sign-in check sends the person to sign in and back",
  async (path) => {
    const answer = await browser().fetch(path);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get("location") ?? "", "https://tunewave.test");
    expect(location.pathname).toBe(path.startsWith("/de/") ? "/de/login" : "/login");
    expect(location.searchParams.get("redirect")).toBe(path);
  },
);

test.each(securePages)(
  "%s signed in: the page itself, private, its canonical address %s",
  async (path, canonical) => {
    people += 1;
    const who = browser();
    await signIn(who, `secure.${people}.${Date.now()}@example.com`);
    const answer = await who.fetch(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toMatch(/private|no-store/);
    const html = await answer.text();
    expect(html).toContain(`<link rel="canonical" href="https://tunewave.test${canonical}"/>`);
    // A signed-in page, not the signed-out prompt: the person's address is on it.
    expect(html).toContain(`secure.${people}.`);
  },
);
