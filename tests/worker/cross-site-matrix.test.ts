import { env, SELF } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { createOrigin } from "#origin/index.ts";

// Decision 030: one cross-site rule for every state-changing request. Every page route with an action
// (read from the app's own routes, vitest.worker.config.ts) and every write of the /services API
// (read from the embedded origin's own route table) is asked by another site in every way a page
// of another site can ask, with every body a form can send: all refused. The same request from
// the site itself gets through the rule.

const site = "https://tunewave.test";
const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Every /services write of the embedded origin, its parameters filled with "x". */
const serviceWrites = [
  ...new Map(
    createOrigin()
      .routes.filter((route) => writeMethods.has(route.method.toUpperCase()))
      .map((route) => {
        const path = route.path.replace(/:[^/]+/g, "x").replace(/\*/g, "x");
        return [`${route.method} ${path}`, { method: route.method.toUpperCase(), path }];
      }),
  ).values(),
];

const pageWrites = env.TEST_PAGE_ACTIONS.map(({ path }) => ({ method: "POST", path }));

/** Who asks: another site, a sibling on the same site, an opaque origin, a browser that says cross-site. */
const senders: [string, Record<string, string>][] = [
  ["another site", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
  [
    "another origin of the same site",
    { origin: "https://shop.tunewave.test", "sec-fetch-site": "same-site" },
  ],
  ["an opaque origin (Origin: null)", { origin: "null", "sec-fetch-site": "cross-site" }],
  ["no Origin, Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
];

/** What a form of another site can send, and the JSON a script would. */
const bodies: [string, () => { contentType: string | undefined; body: BodyInit }][] = [
  [
    "form",
    () => ({
      contentType: "application/x-www-form-urlencoded",
      body: "email=victim%40example.com&confirm=DELETE",
    }),
  ],
  [
    "text/plain",
    () => ({ contentType: "text/plain", body: '{"email":"victim@example.com","decision":"allow"}' }),
  ],
  [
    "multipart",
    () => {
      const form = new FormData();
      form.set("email", "victim@example.com");
      return { contentType: undefined, body: form };
    },
  ],
  ["JSON", () => ({ contentType: "application/json", body: '{"email":"victim@example.com"}' })],
];

function send(
  write: { method: string; path: string },
  headers: Record<string, string>,
  made: { contentType: string | undefined; body: BodyInit },
) {
  const init = new Headers({ ...headers, cookie: `tw_session=${"s".repeat(43)}` });
  if (made.contentType) init.set("content-type", made.contentType);
  return SELF.fetch(`${site}${write.path}`, {
    method: write.method,
    headers: init,
    body: made.body,
    redirect: "manual",
  });
}

test("the matrix covers the writes it is meant to", () => {
  expect(pageWrites.map((w) => w.path)).toEqual(
    expect.arrayContaining([
      "/login?index",
      "/logout",
      "/privacy/delete",
      "/myshazam?index",
      "/campaign/x/redeem",
    ]),
  );
  expect(serviceWrites.map((w) => `${w.method} ${w.path}`)).toEqual(
    expect.arrayContaining([
      "POST /services/account/login/email",
      "POST /services/account/logout",
      "POST /services/account/privacy/delete",
      "POST /services/account/privacy/export",
    ]),
  );
});

describe.each([
  ["page", pageWrites],
  ["service", serviceWrites],
] as const)("every %s write", (_kind, writes) => {
  test.each(writes.map((write) => [`${write.method} ${write.path}`, write] as const))(
    "%s: refused from every other origin, with every body",
    async (_name, write) => {
      for (const [sender, headers] of senders) {
        for (const [kind, make] of bodies) {
          const answer = await send(write, headers, make());
          const body = await answer.text();
          expect(answer.status, `${sender}, ${kind}`).toBe(403);
          expect(answer.headers.getSetCookie(), `${sender}, ${kind}`).toEqual([]);
          expect(body).not.toContain("victim@example.com");
        }
      }
    },
  );

  test.each(writes.map((write) => [`${write.method} ${write.path}`, write] as const))(
    "%s: the site's own request passes the rule",
    async (_name, write) => {
      const json = write.path.startsWith("/services/") || write.path.includes("/redeem");
      const answer = await send(
        write,
        { origin: site, "sec-fetch-site": "same-origin" },
        json
          ? { contentType: "application/json", body: "{}" }
          : { contentType: "application/x-www-form-urlencoded", body: "" },
      );
      await answer.arrayBuffer();
      expect(answer.status).not.toBe(403);
    },
  );
});
