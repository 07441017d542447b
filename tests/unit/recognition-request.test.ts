import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { lookupTrack, requestMatch, requestReturnSig } from "#app/recognition/browser/match-service.ts";
import { signatureSummary } from "#recognizer/answers.ts";
import { SiteError } from "#rules/errors.ts";
import {
  matchRequestBody,
  webrecMatchRequestSchema,
  webrecMatchResponseSchema,
  webrecSignatureSummarySchema,
} from "#rules/schemas/webrec.ts";
import {
  computeSignature,
  decodeSignatureBase64,
  encodeSignatureBase64,
  signatureDurationMs,
} from "#signature/index.ts";

// Spec 002 §3 web match request and response, as the origin validates them and the page sends them.

const valid = { data: "VFdTRwEIAAQAAQAAQB8AAAAAAAAAAAAA", sessionId: "5f0c-11aa", lang: "en", country: "GB" };

describe("the web match request", () => {
  test.each([
    ["a valid request", valid, true],
    ["a language key with a region", { ...valid, lang: "pt-br" }, true],
    ["a lower-case country", { ...valid, country: "gb" }, true],
    ["padding in the data", { ...valid, data: "QUJD" }, true],
    ["no data", { ...valid, data: undefined }, false],
    ["empty data", { ...valid, data: "" }, false],
    ["data that is not base64", { ...valid, data: "abc$" }, false],
    ["padding in the middle", { ...valid, data: "QQ==QQ==" }, false],
    ["a number for data", { ...valid, data: 12 }, false],
    ["no session id", { ...valid, sessionId: undefined }, false],
    ["a session id with spaces", { ...valid, sessionId: "a b" }, false],
    ["a session id of 65 characters", { ...valid, sessionId: "a".repeat(65) }, false],
    ["an unknown language", { ...valid, lang: "xx" }, false],
    ["a locale rather than a key", { ...valid, lang: "en-US" }, false],
    ["an unknown country", { ...valid, country: "ZZ" }, false],
    ["a three-letter country", { ...valid, country: "GBR" }, false],
    ["no country", { ...valid, country: undefined }, false],
  ])("%s: valid %s", (_name, input, expected) => {
    expect(v.safeParse(webrecMatchRequestSchema, input).success).toBe(expected);
  });

  test("matchRequestBody: a checkpoint's signature in its session, as the origin expects it", () => {
    const data = encodeSignatureBase64(computeSignature(new Float32Array(8000 * 3), 8000));
    const body = matchRequestBody(data, { sessionId: "5f0c-11aa", lang: "pt-br", country: "BR" });
    expect(body).toEqual({ data, sessionId: "5f0c-11aa", lang: "pt-br", country: "BR" });
    expect(v.safeParse(webrecMatchRequestSchema, body).success).toBe(true);
  });

  test("the country is upper-cased", () => {
    expect(v.parse(webrecMatchRequestSchema, { ...valid, country: "de" }).country).toBe("DE");
  });
});

describe("the web match response", () => {
  const match = {
    trackId: "503723567",
    weburl: "/track/503723567/menu-theme",
    offset: 1200,
    timeskew: 0.001,
    frequencyskew: 0,
  };
  test.each([
    ["no match", { matches: [] }, true],
    ["a match", { matches: [match] }, true],
    [
      "a negative offset (the recording started just before the track)",
      { matches: [{ ...match, offset: -40 }] },
      true,
    ],
    ["a weburl with a language prefix", { matches: [{ ...match, weburl: "/de/track/1/a" }] }, false],
    ["a weburl with a query", { matches: [{ ...match, weburl: "/track/1/a?x=1" }] }, false],
    ["a track id that is not numeric", { matches: [{ ...match, trackId: "abc" }] }, false],
    ["a fractional offset", { matches: [{ ...match, offset: 1.5 }] }, false],
    ["no matches field", {}, false],
  ])("%s: valid %s", (_name, input, expected) => {
    expect(v.safeParse(webrecMatchResponseSchema, input).success).toBe(expected);
  });
});

describe("returnSig's signature summary", () => {
  test("lists every peak as [ms, Hz] within the recording and the band", () => {
    const rate = 16000;
    const samples = new Float32Array(rate * 3);
    for (let i = 0; i < samples.length; i++) {
      const t = i / rate;
      samples[i] = Math.sin(2 * Math.PI * (440 + 200 * Math.floor(t * 4)) * t) * 0.5;
    }
    const signature = decodeSignatureBase64(encodeSignatureBase64(computeSignature(samples, rate)));
    const summary = v.parse(webrecSignatureSummarySchema, signatureSummary(signature));
    expect(summary.peakCount).toBe(signature.frames.length);
    expect(summary.peakCount).toBeGreaterThan(0);
    // Whole analysis frames only: up to one FFT window (128 ms) short of the 3 s heard.
    expect(summary.durationMs).toBe(Math.round(signatureDurationMs(signature)));
    expect(summary.durationMs).toBeGreaterThan(3000 - 130);
    expect(summary.durationMs).toBeLessThanOrEqual(3000);
    for (const [ms, hz] of summary.signature) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(summary.durationMs);
      expect(hz).toBeGreaterThan(0);
      expect(hz).toBeLessThanOrEqual(summary.sampleRate / 2);
    }
    // The tones were 440, 640, 840 ... Hz: the strongest peaks sit on them.
    const near = summary.signature.filter(([, hz]) =>
      [440, 640, 840, 1040].some((f) => Math.abs(hz - f) < 20),
    );
    expect(near.length).toBeGreaterThan(summary.peakCount / 4);
  });
});

describe("the page's calls", () => {
  function answering(status: number, body: string) {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fetch = (async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return new Response(body, { status, headers: { "Content-Type": "application/json" } });
    }) as typeof globalThis.fetch;
    return { calls, fetch };
  }

  test("match is a JSON POST to /services/webrec/match, its answer parsed", async () => {
    const { calls, fetch } = answering(200, JSON.stringify({ matches: [] }));
    expect(await requestMatch(valid, { fetch })).toEqual({ matches: [] });
    expect(calls[0]?.url).toBe("/services/webrec/match");
    expect(calls[0]?.init?.method).toBe("POST");
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual(valid);
    expect(new Headers(calls[0]?.init?.headers).get("content-type")).toBe("application/json");
  });

  test("returnSig posts the same body to /services/webrec/returnSig", async () => {
    const summary = {
      sampleRate: 8000,
      fftSize: 1024,
      hop: 256,
      frameCount: 1,
      durationMs: 32,
      peakCount: 0,
      signature: [],
    };
    const { calls, fetch } = answering(200, JSON.stringify(summary));
    expect(await requestReturnSig(valid, { fetch })).toEqual(summary);
    expect(calls[0]?.url).toBe("/services/webrec/returnSig");
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual(valid);
  });

  test.each([
    // Spec 000 §8 "status 401 gives unauthorized": the one request helper's rule (app/shell/browser/request.ts).
    [401, JSON.stringify({ error: "unauthorized" }), "unauthorized"],
    [400, JSON.stringify({ error: "invalidparam", message: "Invalid sessionId" }), "serviceerror"],
    [413, JSON.stringify({ error: "invalidparam", message: "too large" }), "serviceerror"],
    [502, "<html>bad gateway</html>", "serviceerror"],
    [200, "not json", "serviceerror"],
    [200, JSON.stringify({ matches: "none" }), "baddata"],
  ])("an answer %d %s fails as %s, with the status and body", async (status, body, type) => {
    const { fetch } = answering(status, body);
    const error = await requestMatch(valid, { fetch }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).type).toBe(type);
    expect((error as SiteError).status).toBe(status);
  });

  test("a fetch that throws is a network failure, an abort an abort", async () => {
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof globalThis.fetch;
    expect(await requestMatch(valid, { fetch: failing }).catch((error: SiteError) => error.type)).toBe(
      "network",
    );
    const controller = new AbortController();
    controller.abort();
    expect(
      await requestMatch(valid, { fetch: failing, signal: controller.signal }).catch(
        (error: SiteError) => error.type,
      ),
    ).toBe("abort");
  });

  test("a match that takes too long times out", async () => {
    const hanging = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      })) as typeof globalThis.fetch;
    expect(
      await requestMatch(valid, { fetch: hanging, timeoutMs: 20 }).catch((error: SiteError) => error.type),
    ).toBe("timeout");
  });

  test("the track lookup asks the track service in the page's language and country", async () => {
    const track = {
      key: "1",
      alias: "a",
      title: "T",
      subtitle: "S",
      durationMs: 1000,
      properties: { bkgcolor: "000000", bkglight: false },
      extra: "ignored",
    };
    const { calls, fetch } = answering(200, JSON.stringify(track));
    const found = await lookupTrack({ lang: "pt-br", country: "BR", trackId: "1" }, { fetch });
    expect(calls[0]?.url).toBe("/services/track/v1/pt-br/BR/web/1");
    expect(found.title).toBe("T");
  });
});
