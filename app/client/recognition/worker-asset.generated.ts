// Written by scripts/build-recognition-worker.mjs: do not edit by hand.
/** The signature Web Worker's script, content-hashed under /build/. */
export const signatureWorkerUrl = "/build/_recognition/signature-worker-aae541ba3632.js";
