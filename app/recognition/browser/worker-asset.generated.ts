// Written by scripts/build-recognition-worker.mjs: do not edit by hand.
/** The signature Web Worker's script, content-hashed under /build/. */
export const signatureWorkerUrl = "/build/_recognition/signature-worker-3a3cd44c7262.js";
