import { describe, expect, test } from "vitest";
import type { FailureKind } from "#app/recognition/browser/failures.ts";
import { type AudioGlobals, microphoneSupport } from "#app/recognition/browser/input-support.ts";
import type { RecognitionInputKind } from "#app/recognition/browser/session.ts";
import { recognitionMessage } from "#app/recognition/recognition-messages.ts";
import en from "#locales/en/recognition.json";
import { flatten } from "#tests/locales-completeness.ts";

// Which message the recognition screen shows for which failure, and what the person can do there.

const rows: [FailureKind, RecognitionInputKind, string, string | undefined, string, boolean][] = [
  // failure, input, text, heading, action, store link
  ["unsupported", "microphone", "error.unsupported", undefined, "none", true],
  ["insecure", "microphone", "error.insecure", undefined, "none", false],
  ["microphonedenied", "microphone", "permission.denied", "permission.title", "listen", false],
  ["background", "microphone", "interrupted.background", "interrupted.title", "listen", false],
  ["inputended", "microphone", "interrupted.microphone", "interrupted.title", "listen", false],
  ["inputended", "tab", "interrupted.tab", "interrupted.title", "listen", false],
  ["nomicrophone", "microphone", "error.nomicrophone", "error.title", "refresh", false],
  ["microphoneunavailable", "microphone", "error.text", "error.title", "refresh", false],
  ["worker", "microphone", "error.text", "error.title", "refresh", false],
  ["service", "file", "error.text", "error.service", "refresh", false],
  ["tabdenied", "tab", "error.tabdenied", "error.title", "tryAgain", false],
  ["notabaudio", "tab", "error.notabaudio", "error.title", "tryAgain", false],
  ["fileunreadable", "file", "error.fileunreadable", "error.title", "tryAgain", false],
  ["fileempty", "file", "error.fileempty", "error.title", "tryAgain", false],
  ["filetoolong", "file", "error.filetoolong", "error.title", "tryAgain", false],
];

test.each(rows)("%s (%s): %s", (failure, input, text, heading, action, storeLink) => {
  const message = recognitionMessage(failure, input);
  expect([message.text, message.heading, message.action, message.storeLink]).toEqual([
    text,
    heading,
    action,
    storeLink,
  ]);
});

test("every message and heading is a string of the recognition namespace", () => {
  const keys = flatten(en);
  for (const [failure, input] of rows) {
    const { text, heading } = recognitionMessage(failure, input);
    expect(keys.has(text), text).toBe(true);
    if (heading) expect(keys.has(heading), heading).toBe(true);
  }
});

describe("whether this browser can record the microphone", () => {
  class FakeAudioContext {}
  const getUserMedia = async () => new MediaStream();
  const cases: [string, AudioGlobals, string][] = [
    [
      "a secure page with getUserMedia and Web Audio",
      {
        isSecureContext: true,
        navigator: { mediaDevices: { getUserMedia } },
        AudioContext: FakeAudioContext as never,
      },
      "supported",
    ],
    [
      "Safari's prefixed AudioContext",
      {
        isSecureContext: true,
        navigator: { mediaDevices: { getUserMedia } },
        webkitAudioContext: FakeAudioContext as never,
      },
      "supported",
    ],
    // An http:// page has no navigator.mediaDevices at all.
    [
      "an http:// page",
      { isSecureContext: false, navigator: {}, AudioContext: FakeAudioContext as never },
      "insecure",
    ],
    [
      "no mediaDevices",
      { isSecureContext: true, navigator: {}, AudioContext: FakeAudioContext as never },
      "unsupported",
    ],
    [
      "mediaDevices without getUserMedia",
      { isSecureContext: true, navigator: { mediaDevices: {} }, AudioContext: FakeAudioContext as never },
      "unsupported",
    ],
    ["no Web Audio", { isSecureContext: true, navigator: { mediaDevices: { getUserMedia } } }, "unsupported"],
  ];
  test.each(cases)("%s: %s", (_, scope, support) => {
    expect(microphoneSupport(scope)).toBe(support);
  });
});
