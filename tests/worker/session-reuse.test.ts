import { env } from "cloudflare:test";
import { describe, expect, test } from "vitest";
import { endSession, findSession, sessionReuseMs, sha256, startSession } from "#origin/accounts.ts";
import { deleteAccount } from "#origin/privacy.ts";
import { browser, signIn } from "./browser-jar";

// Decision 048: reads may take the isolate's lookup of a session from the last `sessionReuseMs`;
// writes always ask D1, and signing out or deleting through the isolate forgets at once.

let people = 0;
function nextEmail(): string {
  people += 1;
  return `reuse.${people}.${Date.now()}@example.com`;
}

/** Ends a session in D1 alone, as a sign-out through another isolate does. */
async function endElsewhere(session: string): Promise<void> {
  await env.DB.prepare("DELETE FROM sessions WHERE id_hash = ?")
    .bind(await sha256(session))
    .run();
}

describe("a session looked up lately", () => {
  const t0 = Date.UTC(2026, 10, 29, 12);

  test.each([
    {
      case: "a read within the window takes the remembered answer",
      reuse: "recent",
      at: 1_000,
      outcome: "active",
    },
    { case: "a read after the window asks D1", reuse: "recent", at: sessionReuseMs, outcome: "ended" },
    { case: "a write asks D1 at once", reuse: "none", at: 1, outcome: "ended" },
  ] as const)("ended elsewhere: $case", async ({ reuse, at, outcome }) => {
    const { session } = await startSession(env.DB, nextEmail(), "email", t0);
    expect((await findSession(env.DB, session, t0, "recent")).outcome).toBe("active");
    await endElsewhere(session);
    expect((await findSession(env.DB, session, t0 + at, reuse)).outcome).toBe(outcome);
  });

  test("an answer from D1 that the session ended replaces the remembered one", async () => {
    const { session } = await startSession(env.DB, nextEmail(), "email", t0);
    await findSession(env.DB, session, t0, "recent");
    await endElsewhere(session);
    expect((await findSession(env.DB, session, t0 + 1, "none")).outcome).toBe("ended");
    expect((await findSession(env.DB, session, t0 + 2, "recent")).outcome).toBe("ended");
  });

  test("signing out through this isolate forgets at once", async () => {
    const { session } = await startSession(env.DB, nextEmail(), "email", t0);
    await findSession(env.DB, session, t0, "recent");
    await endSession(env.DB, session);
    expect((await findSession(env.DB, session, t0 + 1, "recent")).outcome).toBe("ended");
  });

  test("deleting the account through this isolate forgets every session of it", async () => {
    const email = nextEmail();
    const first = await startSession(env.DB, email, "email", t0);
    const second = await startSession(env.DB, email, "google", t0);
    const found = await findSession(env.DB, first.session, t0, "recent");
    await findSession(env.DB, second.session, t0, "recent");
    if (found.outcome !== "active") throw new Error("the session should be active");
    await deleteAccount(env.DB, { userId: found.userId, email });
    expect((await findSession(env.DB, first.session, t0 + 1, "recent")).outcome).toBe("ended");
    expect((await findSession(env.DB, second.session, t0 + 1, "recent")).outcome).toBe("ended");
  });

  test("a session is never remembered past its own expiry", async () => {
    const { session } = await startSession(env.DB, nextEmail(), "email", t0);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id_hash = ?")
      .bind(t0 + 500, await sha256(session))
      .run();
    expect((await findSession(env.DB, session, t0, "recent")).outcome).toBe("active");
    expect((await findSession(env.DB, session, t0 + 500, "recent")).outcome).toBe("ended");
  });
});

describe("through the site", () => {
  test("after a sign-out elsewhere, the library still reads for the window; a write is refused at once", async () => {
    const who = browser();
    expect((await signIn(who, nextEmail())).status).toBe(303);
    const session = who.jar.get("tw_session") ?? "";
    expect((await who.fetch("/services/account/tags/count")).status).toBe(200);
    await endElsewhere(session);
    // The window decision 048 writes down: what the cookie could read the moment before.
    expect((await who.fetch("/services/account/tags/count")).status).toBe(200);
    const write = await who.fetch("/services/account/tags/none/hide", { method: "POST" });
    expect(write.status).toBe(456);
    // The write's answer from D1 replaced the remembered session: reads are refused too (the 456
    // cleared the jar's cookie; a copy of it is what is left).
    who.jar.set("tw_session", session);
    expect((await who.fetch("/services/account/tags/count")).status).toBe(456);
  });
});
