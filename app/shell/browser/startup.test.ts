import { expect, test } from "vitest";
import { type StartupSteps, startApp } from "#app/shell/browser/startup.ts";
import { SiteError } from "#rules/errors.ts";

type User = { loggedin: boolean };
type Steps = StartupSteps<User, Record<string, unknown>>;

/** Steps that record the order they ran in; each can be overridden to fail. */
function recordingSteps(overrides: Partial<Steps> = {}) {
  const order: string[] = [];
  let time = 1000;
  const steps: Steps = {
    cookiesEnabled: () => {
      order.push("cookies");
      return true;
    },
    loadUser: async () => {
      order.push("user");
      return { loggedin: true };
    },
    loadFeatures: async (user) => {
      order.push(`features(loggedin=${user.loggedin})`);
      return { lyrics: true };
    },
    ready: (ok) => {
      order.push(`ready(${ok})`);
      time += 250;
    },
    sendPreloadStatistic: (timespent) => {
      order.push(`preload(${timespent})`);
    },
    startedAt: 900,
    now: () => time,
    ...overrides,
  };
  return { steps, order };
}

test("start-up checks cookies, loads the user then the flags, then ready and the preload statistic", async () => {
  const { steps, order } = recordingSteps();
  const state = await startApp(steps);
  expect(order).toEqual(["cookies", "user", "features(loggedin=true)", "ready(true)", "preload(350)"]);
  expect(state).toEqual({
    status: "ready",
    timespent: 350,
    user: { loggedin: true },
    features: { lyrics: true },
  });
});

test.each([
  { step: "loadUser", stoppedAfter: ["cookies"] },
  { step: "loadFeatures", stoppedAfter: ["cookies", "user"] },
] as const)(
  "a failed $step still signals ready(false) and sends no preload statistic",
  async ({ step, stoppedAfter }) => {
    const { steps, order } = recordingSteps({
      [step]: async () => {
        throw new SiteError("network", `${step} failed`);
      },
    });
    const state = await startApp(steps);
    expect(order).toEqual([...stoppedAfter, "ready(false)"]);
    expect(state.status).toBe("failed");
    if (state.status === "failed") {
      expect(state.error.type).toBe("network");
      expect(state.error.message).toBe(`${step} failed`);
    }
  },
);

test("a step failing in the page's own code fails the set-up with a jserror", async () => {
  const { steps, order } = recordingSteps({
    loadFeatures: () => {
      throw new TypeError("x is undefined");
    },
  });
  const state = await startApp(steps);
  expect(order.slice(-1)).toEqual(["ready(false)"]);
  expect(state).toMatchObject({ status: "failed", error: { type: "jserror", message: "x is undefined" } });
});

test("without cookies the app says so: nocookies, ready(false), nothing else loaded", async () => {
  const { steps, order } = recordingSteps({ cookiesEnabled: () => false });
  expect(await startApp(steps)).toEqual({ status: "nocookies" });
  expect(order).toEqual(["ready(false)"]);
});

test("a failing preload statistic does not undo a started app", async () => {
  const { steps, order } = recordingSteps({
    sendPreloadStatistic: async () => {
      throw new Error("beacon down");
    },
  });
  const state = await startApp(steps);
  expect(state.status).toBe("ready");
  expect(order.filter((entry) => entry.startsWith("ready"))).toEqual(["ready(true)"]);
});
