// Written by scripts/build-recognition-worker.mjs: do not edit by hand.
/** The signature Web Worker's script, content-hashed under /build/. */
export const signatureWorkerUrl = "/build/_recognition/signature-worker-df10d4f79676.js";
