// The signature Web Worker's entry. Bundled on its own by scripts/build-recognition-worker.mjs (the
// Remix classic compiler cannot bundle workers) into public/build/_recognition/.
import { createSignatureWorkerHandler } from "./signature-worker-core";

type WorkerScope = {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

const scope = self as unknown as WorkerScope;
const handle = createSignatureWorkerHandler((message, transfer = []) => scope.postMessage(message, transfer));
scope.onmessage = (event) => handle(event.data);
