import { describe, expect, test } from "vitest";
import { audioConstraints, hasLabelledAudioInput, pausePageMedia } from "#app/recognition/browser/capture.ts";
import {
  microphoneFailure,
  RecognitionFailure,
  recordingStatistic,
  serviceStatistic,
} from "#app/recognition/browser/failures.ts";
import { isOnTrackPage, type StoredMatch, trackPageHref } from "#app/recognition/browser/outcome.ts";
import { captureOptionsOf } from "#app/recognition/capture-options.ts";
import { readLyricsSync } from "#app/track/synced-lyrics.server.ts";
import { SiteError } from "#rules/errors.ts";
import type { LanguageKey } from "#rules/languages.ts";

const stored: StoredMatch = {
  trackId: "503723567",
  weburl: "/track/503723567/menu-theme-enhanced",
  startDate: 1_700_000_000_120,
  offset: 95_250,
  timeskew: -0.0021,
  frequencyskew: 0,
  matchedAt: 1_700_000_006_000,
  trackLength: 648_008,
};

describe("the track page of a match", () => {
  test.each([
    ["en", "/track/503723567/menu-theme-enhanced"],
    ["de", "/de/track/503723567/menu-theme-enhanced"],
    ["zh-tw", "/zh-tw/track/503723567/menu-theme-enhanced"],
  ])("in %s is %s", (lang, path) => {
    expect(trackPageHref(lang as LanguageKey, stored).split("?")[0]).toBe(path);
  });

  test("carries the parameters the synced lyrics read, and they read back as the match", () => {
    const href = trackPageHref("en", stored);
    const search = new URL(href, "https://tunewave.test").searchParams;
    expect(readLyricsSync(search, 1)).toEqual({
      startDate: stored.startDate,
      offset: stored.offset,
      trackLength: 648_008,
      timeSkew: -0.0021,
    });
  });

  test("without a known length it leaves trackLength out (the track's own duration is used)", () => {
    const { trackLength: _, ...unknownLength } = stored;
    const search = new URL(trackPageHref("en", unknownLength), "https://tunewave.test").searchParams;
    expect(search.has("trackLength")).toBe(false);
    expect(readLyricsSync(search, 200_000)?.trackLength).toBe(200_000);
  });

  test.each([
    ["/track/503723567/menu-theme-enhanced", "en", true],
    ["/track/503723567/menu-theme-enhanced/", "en", true],
    ["/de/track/503723567/menu-theme-enhanced", "de", true],
    ["/de/track/503723567/menu-theme-enhanced", "en", false],
    ["/track/503723567/other-alias", "en", false],
    ["/track/5037235670/menu-theme-enhanced", "en", false],
    ["/identify", "en", false],
  ])("%s in %s is that track page: %s", (pathname, lang, expected) => {
    expect(isOnTrackPage(pathname, lang as LanguageKey, stored.weburl)).toBe(expected);
  });
});

describe("the statistics of failures (spec 002 §8)", () => {
  test.each([
    ["Microphone denied", "microphonedenied"],
    ["Worker failure", "workerfailure"],
    ["No  Microphone\tFound", "nomicrophonefound"],
  ])("recording error %j is %j", (description, statistic) => {
    expect(recordingStatistic(description)).toBe(statistic);
  });

  test("a match service error is service-error:{message}", () => {
    expect(serviceStatistic("timeout")).toBe("service-error:timeout");
  });

  test.each([
    ["NotAllowedError", "microphonedenied", "microphonedenied"],
    ["SecurityError", "microphonedenied", "microphonedenied"],
    ["NotFoundError", "nomicrophone", "nomicrophone"],
    ["OverconstrainedError", "nomicrophone", "nomicrophone"],
    ["NotSupportedError", "unsupported", "audiounsupported"],
    ["NotReadableError", "microphoneunavailable", "microphoneunavailable"],
    ["AbortError", "microphoneunavailable", "microphoneunavailable"],
  ])("getUserMedia's %s is %s with statistic %s", (name, kind, statistic) => {
    const failure = microphoneFailure(new DOMException("message", name));
    expect(failure.kind).toBe(kind);
    expect(failure.statistic).toBe(statistic);
  });

  test("a worker failure keeps its detail but not in the statistic", () => {
    const failure = RecognitionFailure.worker("Out of memory");
    expect(failure.statistic).toBe("workerfailure");
    expect(failure.message).toContain("Out of memory");
  });

  test.each([
    [
      new SiteError("serviceerror", "x", { status: 503, body: '{"error":"serviceerror","message":"down"}' }),
      "service-error:serviceerror",
    ],
    [
      new SiteError("serviceerror", "x", { status: 413, body: '{"error":"invalidparam","message":"big"}' }),
      "service-error:invalidparam",
    ],
    [new SiteError("serviceerror", "x", { status: 500, body: "oops" }), "service-error:serviceerror500"],
    [new SiteError("timeout", "x"), "service-error:timeout"],
    [new Error("?"), "service-error:unknown"],
  ])("service failure %# is %s", (error, statistic) => {
    expect(RecognitionFailure.service(error).statistic).toBe(statistic);
  });
});

describe("capture options (spec 002 §5)", () => {
  test.each([
    ["", { echoCancellation: false, noiseSuppression: false, audioCapture: false }],
    ["ec=true&ns=true", { echoCancellation: true, noiseSuppression: true, audioCapture: false }],
    ["ec=true", { echoCancellation: true, noiseSuppression: false, audioCapture: false }],
    ["ec=1&ns=TRUE&ns=true", { echoCancellation: false, noiseSuppression: false, audioCapture: false }],
    ["ec=yes&ns=on", { echoCancellation: false, noiseSuppression: false, audioCapture: false }],
    ["audiocapture=1", { echoCancellation: false, noiseSuppression: false, audioCapture: true }],
    ["audiocapture=true", { echoCancellation: false, noiseSuppression: false, audioCapture: false }],
  ])("?%s", (query, expected) => {
    expect(captureOptionsOf(new URLSearchParams(query))).toEqual(expected);
  });

  test("the microphone is asked for mono, with the filters only when on", () => {
    expect(audioConstraints({ echoCancellation: false, noiseSuppression: true })).toEqual({
      channelCount: 1,
      echoCancellation: false,
      noiseSuppression: true,
    });
  });
});

describe("microphone detection: a labelled audio input", () => {
  const device = (kind: MediaDeviceKind, label: string) =>
    ({ kind, label, deviceId: "", groupId: "" }) as MediaDeviceInfo;
  test.each([
    ["a labelled microphone", [device("audioinput", "Built-in Microphone")], true],
    ["a microphone without its label (no permission yet)", [device("audioinput", "")], false],
    ["a labelled camera only", [device("videoinput", "FaceTime HD")], false],
    ["a labelled speaker only", [device("audiooutput", "Speakers")], false],
    ["no device", [], false],
  ])("%s: %s", async (_name, devices, expected) => {
    expect(await hasLabelledAudioInput({ enumerateDevices: async () => devices })).toBe(expected);
  });

  test("no media devices, or a failing list, is no access", async () => {
    expect(await hasLabelledAudioInput(undefined)).toBe(false);
    expect(
      await hasLabelledAudioInput({
        enumerateDevices: async () => {
          throw new Error("denied");
        },
      }),
    ).toBe(false);
  });
});

test("start pauses the page's playing videos and audio", () => {
  const media = [
    {
      paused: false,
      pause() {
        this.paused = true;
      },
    },
    {
      paused: true,
      pause() {
        throw new Error("already paused");
      },
    },
  ];
  pausePageMedia({ querySelectorAll: () => media } as unknown as Document);
  expect(media.map((element) => element.paused)).toEqual([true, true]);
});
