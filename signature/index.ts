/**
 * The audio signature shared by the browser (in a Web Worker), the catalogue builder, the origin's
 * match service and the command line: pure TypeScript, no DOM, Workers or Node APIs.
 */
export * from "./constants";
export { SignatureError, type SignatureErrorReason } from "./errors";
export { type Match, matchSignature, matchSignatureIn, type Ranking, rankSignature } from "./match";
export { mixToMono } from "./mono";
export {
  fetchedPostings,
  type PostingLists,
  type PostingsLayout,
  type PostingsRequest,
  type PostingsStore,
  trackIndexPostings,
  trackIndexStore,
} from "./postings";
export { resample } from "./resample";
export {
  checkSignatureBounds,
  computeSignature,
  decodeSignature,
  decodeSignatureBase64,
  encodeSignature,
  encodeSignatureBase64,
  type Signature,
  type SignatureDensity,
  signatureDensity,
  signatureDurationMs,
} from "./signature";
export { signatureSketch } from "./sketch";
export {
  createIndexBuilder,
  type IndexBuilder,
  type IndexTrack,
  loadIndex,
  type TrackIndex,
} from "./track-index";
export { encodeWav16 } from "./wav";
