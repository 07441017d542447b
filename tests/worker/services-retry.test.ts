import { describe, expect, test } from "vitest";
import { type SiteError, statusOfError } from "#rules/errors.ts";
import {
  answer,
  fakeUpstream,
  hang,
  network,
  okSchema,
  proxyWith,
  type Reply,
  uniquePath,
} from "./services-fakes";

// Retries of the calls the loaders flag retry: at most 2, after an outage only (spec 001 §4).

describe("retry", () => {
  const rules: { name: string; replies: Reply[]; retry: boolean; calls: number; status: number }[] = [
    {
      name: "flagged, 1 failure",
      replies: [answer("", {}, 500), answer()],
      retry: true,
      calls: 2,
      status: 200,
    },
    {
      name: "flagged, 2 failures",
      replies: [answer("", {}, 503), network, answer()],
      retry: true,
      calls: 3,
      status: 200,
    },
    { name: "flagged, 3 failures", replies: [answer("", {}, 500)], retry: true, calls: 3, status: 500 },
    { name: "flagged, timeouts", replies: [hang, hang, hang], retry: true, calls: 3, status: 504 },
    {
      name: "flagged, 404 is not retried",
      replies: [answer("", {}, 404), answer()],
      retry: true,
      calls: 1,
      status: 404,
    },
    {
      name: "flagged, 401 is not retried",
      replies: [answer("", {}, 401), answer()],
      retry: true,
      calls: 1,
      status: 401,
    },
    { name: "not flagged", replies: [answer("", {}, 500), answer()], retry: false, calls: 1, status: 500 },
  ];

  for (const rule of rules) {
    test(`${rule.name}: ${rule.calls} calls, ${rule.status}`, async () => {
      const { upstream, calls } = fakeUpstream(...rule.replies);
      const proxy = proxyWith(upstream, { timeoutMs: 30 });
      const outcome = await proxy
        .getJson(uniquePath(), okSchema, { retry: rule.retry })
        .then(() => 200)
        .catch((error: SiteError) => error.status ?? statusOfError(error.type));
      expect(outcome).toBe(rule.status);
      expect(calls).toHaveLength(rule.calls);
    });
  }

  test("getJson retry option", async () => {
    const { upstream, calls } = fakeUpstream(network, network, answer());
    const proxy = proxyWith(upstream);
    expect(await proxy.getJson(uniquePath(), okSchema, { retry: true })).toEqual({ ok: true });
    expect(calls).toHaveLength(3);
  });
});
