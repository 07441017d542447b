import { describe, expect, test } from "vitest";
import { createSignatureWorker, type WorkerLike } from "#app/recognition/browser/signature-worker-client.ts";
import { createSignatureWorkerHandler } from "#app/recognition/browser/signature-worker-core.ts";
import type { FromSignatureWorker, ToSignatureWorker } from "#app/recognition/browser/worker-protocol.ts";
import { decodeWav } from "#origin/catalog/audio-decode.ts";
import {
  AUDIO_BUFFER_SIZE,
  computeSignature,
  decodeSignatureBase64,
  encodeSignatureBase64,
  signatureDurationMs,
} from "#signature/index.ts";

// The signature worker: what it computes from the microphone's buffers, and the page's side of it.

function music(seconds: number, rate: number): Float32Array {
  const samples = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++) {
    const t = i / rate;
    const note = 330 * 2 ** (Math.floor(t * 5) / 12);
    samples[i] = 0.4 * Math.sin(2 * Math.PI * note * t) + 0.2 * Math.sin(2 * Math.PI * 2.01 * note * t);
  }
  return samples;
}

function handlerWithOutbox() {
  const outbox: FromSignatureWorker[] = [];
  const handle = createSignatureWorkerHandler((message) => outbox.push(message));
  return { outbox, handle };
}

describe("the worker's handler", () => {
  test.each([44_100, 48_000, 16_000])(
    "at %d Hz, buffers of 4096 give the signature of the whole recording",
    (rate) => {
      const { outbox, handle } = handlerWithOutbox();
      const recording = music(3.2, rate);
      handle({ type: "start", sampleRate: rate });
      for (let at = 0; at < recording.length; at += AUDIO_BUFFER_SIZE)
        handle({ type: "samples", samples: recording.slice(at, at + AUDIO_BUFFER_SIZE) });
      handle({ type: "signature", id: 7, wav: false });
      const [answer] = outbox;
      expect(answer?.type).toBe("signature");
      if (answer?.type !== "signature") return;
      const expected = computeSignature(recording, rate);
      expect(answer.id).toBe(7);
      expect(answer.data).toBe(encodeSignatureBase64(expected));
      expect(answer.durationMs).toBe(signatureDurationMs(expected));
      expect(answer.wav).toBeUndefined();
      expect(decodeSignatureBase64(answer.data).frames.length).toBeGreaterThan(0);
    },
  );

  test("each signature covers everything since start, and start forgets the previous recording", () => {
    const { outbox, handle } = handlerWithOutbox();
    const recording = music(6, 16_000);
    handle({ type: "start", sampleRate: 16_000 });
    handle({ type: "samples", samples: recording.slice(0, 48_000) });
    handle({ type: "signature", id: 1, wav: false });
    handle({ type: "samples", samples: recording.slice(48_000) });
    handle({ type: "signature", id: 2, wav: false });
    handle({ type: "start", sampleRate: 16_000 });
    handle({ type: "samples", samples: recording.slice(0, 48_000) });
    handle({ type: "signature", id: 3, wav: false });
    const durations = outbox.map((message) => (message.type === "signature" ? message.durationMs : -1));
    expect(durations[1]).toBeGreaterThan((durations[0] ?? 0) + 2900);
    expect(durations[2]).toBe(durations[0]);
    expect(outbox[2]?.type === "signature" && outbox[2].data).toBe(
      outbox[0]?.type === "signature" && outbox[0].data,
    );
  });

  test("with wav, the audio comes back as a mono 16-bit WAV at the capture rate", () => {
    const { outbox, handle } = handlerWithOutbox();
    const recording = music(1, 22_050);
    handle({ type: "start", sampleRate: 22_050 });
    handle({ type: "samples", samples: recording });
    handle({ type: "signature", id: 1, wav: true });
    const [answer] = outbox;
    if (answer?.type !== "signature" || !answer.wav) throw new Error("no wav");
    const decoded = decodeWav(answer.wav);
    expect(decoded.sampleRate).toBe(22_050);
    expect(decoded.samples.length).toBe(recording.length);
    expect(Math.abs((decoded.samples[100] ?? 0) - (recording[100] ?? 0))).toBeLessThan(1e-3);
  });

  test.each([
    ["a signature before start", [{ type: "signature", id: 4, wav: false }], 4],
    ["an unknown message", [{ type: "dance" }], undefined],
    ["samples that are not Float32Array", [{ type: "samples", samples: [1, 2, 3] }], undefined],
    [
      "a rate the signature refuses",
      [
        { type: "start", sampleRate: 4000 },
        { type: "samples", samples: new Float32Array(8000) },
        { type: "signature", id: 5, wav: false },
      ],
      5,
    ],
  ])("%s answers an error", (_name, messages, id) => {
    const { outbox, handle } = handlerWithOutbox();
    for (const message of messages) handle(message);
    expect(outbox.at(-1)).toMatchObject({ type: "error", id });
  });
});

/** A Worker that runs the real handler in the same thread, asynchronously like a real one. */
function inlineWorker(options: { crashOn?: ToSignatureWorker["type"] } = {}) {
  const posted: ToSignatureWorker[] = [];
  let terminated = false;
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    postMessage(message) {
      posted.push(message);
      setTimeout(() => {
        if (terminated) return;
        if (options.crashOn === message.type) {
          worker.onerror?.(new Event("error"));
          return;
        }
        handle(message);
      }, 1);
    },
    terminate() {
      terminated = true;
    },
  };
  const handle = createSignatureWorkerHandler((message) =>
    setTimeout(() => !terminated && worker.onmessage?.({ data: message } as MessageEvent), 1),
  );
  return { worker, posted, isTerminated: () => terminated };
}

describe("the page's side of the worker", () => {
  test("streams samples (transferred) and answers each signature request with its own answer", async () => {
    const inline = inlineWorker();
    const client = createSignatureWorker(() => inline.worker);
    client.start(16_000);
    const buffer = music(3, 16_000);
    client.push(buffer);
    const [first, second] = await Promise.all([
      client.signature({ wav: false }),
      client.signature({ wav: true }),
    ]);
    expect(first.data).toBe(encodeSignatureBase64(computeSignature(music(3, 16_000), 16_000)));
    expect(second.data).toBe(first.data);
    expect(second.wav).toBeInstanceOf(Uint8Array);
    expect(inline.posted.map((message) => message.type)).toEqual([
      "start",
      "samples",
      "signature",
      "signature",
    ]);
  });

  test("a crash of the worker fails every waiting request as a worker failure, and later ones too", async () => {
    const inline = inlineWorker({ crashOn: "signature" });
    const client = createSignatureWorker(() => inline.worker);
    client.start(16_000);
    const failure = await client.signature({ wav: false }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "worker", statistic: "workerfailure" });
    expect(inline.isTerminated()).toBe(true);
    await expect(client.signature({ wav: false })).rejects.toMatchObject({ kind: "worker" });
  });

  test("an error answer fails that request only", async () => {
    const inline = inlineWorker();
    const client = createSignatureWorker(() => inline.worker);
    await expect(client.signature({ wav: false })).rejects.toMatchObject({ kind: "worker" });
    client.start(16_000);
    client.push(music(1, 16_000));
    await expect(client.signature({ wav: false })).resolves.toMatchObject({ durationMs: expect.any(Number) });
  });

  test("a message of the wrong shape breaks the worker", async () => {
    const inline = inlineWorker();
    const client = createSignatureWorker(() => inline.worker);
    const waiting = client.signature({ wav: false });
    inline.worker.onmessage?.({ data: { type: "signature", id: 1, data: 42 } } as MessageEvent);
    await expect(waiting).rejects.toMatchObject({ kind: "worker" });
  });

  test("a worker that cannot be created is a worker failure", () => {
    expect(() =>
      createSignatureWorker(() => {
        throw new Error("blocked by CSP");
      }),
    ).toThrow(expect.objectContaining({ kind: "worker" }));
  });
});
