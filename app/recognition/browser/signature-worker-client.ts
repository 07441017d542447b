import * as v from "valibot";
import { RecognitionFailure } from "./failures";
import { fromSignatureWorkerSchema, type ToSignatureWorker } from "./worker-protocol";

export type WorkerSignature = { data: string; durationMs: number; wav: Uint8Array | undefined };

/** The page's side of the signature worker. Any failure of the worker is a "worker failure". */
export type SignatureWorker = {
  start(sampleRate: number): void;
  push(samples: Float32Array): void;
  signature(options: { wav: boolean }): Promise<WorkerSignature>;
  terminate(): void;
};

/** The part of a `Worker` used here (a fake one in tests). */
export type WorkerLike = {
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: ErrorEvent | Event) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
  postMessage(message: ToSignatureWorker, transfer?: Transferable[]): void;
  terminate(): void;
};

export function createSignatureWorker(create: () => WorkerLike): SignatureWorker {
  const pending = new Map<
    number,
    { resolve: (signature: WorkerSignature) => void; reject: (error: RecognitionFailure) => void }
  >();
  let nextId = 1;
  let broken: RecognitionFailure | undefined;
  let worker: WorkerLike;

  function breakDown(message: string) {
    broken ??= RecognitionFailure.worker(message);
    for (const { reject } of pending.values()) reject(broken);
    pending.clear();
    worker.terminate();
  }

  try {
    worker = create();
  } catch (error) {
    throw RecognitionFailure.worker(error instanceof Error ? error.message : String(error));
  }
  worker.onmessage = (event) => {
    const parsed = v.safeParse(fromSignatureWorkerSchema, event.data);
    if (!parsed.success) return breakDown(`Unexpected message: ${v.summarize(parsed.issues)}`);
    const message = parsed.output;
    if (message.id === undefined) return breakDown(message.type === "error" ? message.message : "no id");
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.type === "error") waiting.reject(RecognitionFailure.worker(message.message));
    else waiting.resolve({ data: message.data, durationMs: message.durationMs, wav: message.wav });
  };
  worker.onerror = (event) => breakDown("message" in event && event.message ? event.message : "error");
  worker.onmessageerror = () => breakDown("message error");

  function send(message: ToSignatureWorker, transfer: Transferable[] = []) {
    if (broken) return;
    try {
      worker.postMessage(message, transfer);
    } catch (error) {
      breakDown(error instanceof Error ? error.message : String(error));
    }
  }

  return {
    start(sampleRate) {
      send({ type: "start", sampleRate });
    },
    push(samples) {
      send({ type: "samples", samples }, [samples.buffer]);
    },
    signature({ wav }) {
      if (broken) return Promise.reject(broken);
      const id = nextId++;
      const answer = new Promise<WorkerSignature>((resolve, reject) => pending.set(id, { resolve, reject }));
      send({ type: "signature", id, wav });
      return answer;
    },
    terminate() {
      broken ??= RecognitionFailure.worker("terminated");
      pending.clear();
      worker.terminate();
    },
  };
}
