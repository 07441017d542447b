import { expect, test } from "vitest";
import { checkSecureStatus, type SecureStatus } from "#app/account/browser/secure-status.ts";

// Spec 002 §7: what a secure page does with each answer of GET /secure/status.

const signedIn = {
  loggedin: true,
  authenticationType: "FIREBASE",
  method: "email",
  storage: "account",
  hasLibraryZone: false,
  email: "ana@example.com",
};

const here = { origin: "https://tunewave.test", pathname: "/de/secure/myshazam", search: "?sort=title" };

const rows: [string, Response | Error, SecureStatus][] = [
  ["signed in", Response.json(signedIn), { status: "signedin" }],
  [
    "401 with redirectUrl: its {redirectPath} is the current path and query, encoded",
    Response.json(
      { error: "unauthorized", redirectUrl: "/de/login?redirect={redirectPath}" },
      { status: 401 },
    ),
    { status: "signin", url: "/de/login?redirect=%2Fde%2Fsecure%2Fmyshazam%3Fsort%3Dtitle" },
  ],
  [
    "401 with a redirectUrl of this site written absolute",
    Response.json(
      { error: "unauthorized", redirectUrl: "https://tunewave.test/login?r={redirectPath}" },
      { status: 401 },
    ),
    { status: "signin", url: "/login?r=%2Fde%2Fsecure%2Fmyshazam%3Fsort%3Dtitle" },
  ],
  [
    "401 with a redirectUrl of another site: not followed",
    Response.json(
      { error: "unauthorized", redirectUrl: "https://evil.example/?{redirectPath}" },
      { status: 401 },
    ),
    { status: "unknown" },
  ],
  [
    "401 without redirectUrl",
    Response.json({ error: "unauthorized" }, { status: 401 }),
    { status: "unknown" },
  ],
  ["401 that is not JSON", new Response("no", { status: 401 }), { status: "unknown" }],
  [
    "the account service failing",
    Response.json({ error: "serviceerror" }, { status: 502 }),
    { status: "unknown" },
  ],
  ["no network", new TypeError("Failed to fetch"), { status: "unknown" }],
];

test.each(rows)("%s", async (_name, answer, expected) => {
  const asked: string[] = [];
  const fetch = async (url: RequestInfo | URL) => {
    asked.push(String(url));
    if (answer instanceof Error) throw answer;
    return answer;
  };
  expect(await checkSecureStatus(here, { fetch })).toEqual(expected);
  expect(asked).toEqual(["/secure/status"]);
});
