/**
 * Every number of the audio signature in one place. The spec's own constants (002 §4, §9) come
 * first; the rest are ours (the spec leaves the match service unshown) and are tuned with
 * `npx vite-node bench/recognition.ts`. Changing anything below the recording constants changes the
 * signature: bump SIGNATURE_VERSION and rebuild the index.
 */

/** Spec 002 §9: "Recording checkpoints 3, 6, 9, 12 s"; §4: "the 12 s attempt is final". */
export const RECORDING_CHECKPOINTS_SECONDS = [3, 6, 9, 12] as const;
/** Spec 002 §9: "audio buffer 4096". */
export const AUDIO_BUFFER_SIZE = 4096;
/** Spec 002 §9: "mono". */
export const AUDIO_CHANNELS = 1;
/** Spec 002 §9: "16-bit wav". */
export const WAV_BITS_PER_SAMPLE = 16;

/** Input rates computeSignature accepts; anything in between is resampled to the fixed rate. */
export const MIN_INPUT_SAMPLE_RATE = 8000;
export const MAX_INPUT_SAMPLE_RATE = 192000;
/** The signature's fixed rate: every recording is resampled to it before analysis. */
export const SIGNATURE_SAMPLE_RATE = 8000;
/** Windowed-sinc resampler: zero crossings each side, Kaiser beta, pass band as a share of Nyquist. */
export const RESAMPLER_ZERO_CROSSINGS = 10;
export const RESAMPLER_KAISER_BETA = 8;
export const RESAMPLER_ROLLOFF = 0.92;

/** STFT: Hann window of FFT_SIZE samples (128 ms), one frame every HOP_SIZE samples (32 ms). */
export const FFT_SIZE = 1024;
export const HOP_SIZE = 256;
/**
 * Peaks are searched in these bands, each with its own density target (peaks per second, the
 * most salient kept in any one-second window), so that a recording that lost a band (a phone's
 * missing bass, noise drowning the treble) still has peaks in the others.
 */
export const PEAK_BANDS = [
  { fromHz: 20, toHz: 60, perSecond: 3 },
  { fromHz: 60, toHz: 250, perSecond: 6 },
  { fromHz: 250, toHz: 600, perSecond: 10 },
  { fromHz: 600, toHz: 1400, perSecond: 10 },
  { fromHz: 1400, toHz: 3900, perSecond: 10 },
] as const;
/** A peak is the maximum of its neighbourhood: this many frames and bins on each side. */
export const PEAK_NEIGHBOURHOOD_FRAMES = 4;
export const PEAK_NEIGHBOURHOOD_BINS = 12;
/** Adaptive threshold: a peak stands this many dB above the mean level of the bins around it. */
export const PEAK_BACKGROUND_BINS = 40;
export const PEAK_MIN_SALIENCE_DB = 6;
/** Below this level (dB, full-scale sine = 0) nothing counts as a peak: digital silence. */
export const PEAK_FLOOR_DB = -90;
/** Peak frequencies are kept in 1/BIN_FRACTION of a bin (parabolic interpolation). */
export const PEAK_BIN_FRACTION = 8;

/** Target zone of the landmark pairs (Wang 2003): frames after the anchor and the frequency span. */
export const PAIR_MIN_FRAMES = 1;
export const PAIR_MAX_FRAMES = 64;
/** Hash frequencies are quantised to this many FFT bins (15.6 Hz). */
export const HASH_FREQUENCY_BINS = 2;
/** Largest |f2 - f1| in hash frequency units. */
export const PAIR_MAX_FREQUENCY_DELTA = 63;
/**
 * Pairs per anchor: the query tries more than the index keeps, so a lost peak costs less. More
 * index pairs raise a true match's votes and chance votes alike, so the true cell stands further
 * above chance (10 against 6: pink noise at 0 dB, 3 s, 77.5 → 80 % in the recognition bench, false
 * matches still 0.2 %), for an index 1.4 times as large.
 */
export const INDEX_FANOUT = 10;
export const QUERY_FANOUT = 12;
/** The query also looks its pairs up with dt this many frames shorter and longer. */
export const QUERY_DT_TOLERANCE_FRAMES = 1;
/** A query hash votes once in this many frames (1 s): a steady tone repeats its hashes all along. */
export const QUERY_REPEAT_FRAMES = 31;
/** Hash layout: f1 (8 bits) | f2 - f1 + 63 (7 bits) | dt - 1 (6 bits). */
export const HASH_BITS = 21;

/**
 * Speed skew: the query's peaks are rescaled by each of these speed factors before hashing, in
 * this order until one finds a sure match, so a recording played up to ±2 % fast or slow still
 * matches.
 */
export const SKEW_FACTORS = [1, 0.995, 1.005, 0.99, 1.01, 0.985, 1.015, 0.98, 1.02] as const;
/** Offset histogram: votes within this many frames of an offset count together. */
export const MATCH_OFFSET_TOLERANCE_FRAMES = 1;
/** A match needs at least this many aligned hashes ... */
export const MATCH_MIN_ALIGNED = 8;
/**
 * ... and this many standard deviations above the best other track, its votes read as a Poisson
 * count of chance alignments (b + 3.25 sqrt(b + 1): 28 against 15, 82 against 57), when both are
 * cells of the first scan, at the catalogue's own speed: most recordings play at it.
 */
export const MATCH_MARGIN_AT_CATALOGUE_SPEED = 3.25;
/**
 * Across the whole skew scan the best cell is the largest of nine scans' chance cells, so it must
 * stand further above the next track (b + 3.5 sqrt(b + 1): 29 against 15).
 */
export const MATCH_MARGIN = 3.5;
/**
 * Unless the other track itself stands this far above the third: then the two share the recording
 * (a remaster, a medley) and the better one is the answer.
 */
export const MATCH_SHARED_MARGIN = 6;
/**
 * Stop list: a hash whose index bucket holds more than this many times the mean entries of a
 * non-empty bucket (and at least MATCH_MIN_COMMON_BUCKET) is too common to vote.
 */
export const MATCH_COMMON_BUCKET_FACTOR = 16;
export const MATCH_MIN_COMMON_BUCKET = 64;
/**
 * What one step of the matcher (a speed's vote, an alignment) reads at most: the postings of the
 * query's rarest hashes, in ascending bucket size, up to this many entries (2 MiB of u32s); for
 * the vote, a bucket counts once for each time its hash occurs in the query, so that its vote
 * table holds at most this many votes. Rare hashes tell tracks apart most, and a bound a step keeps
 * what a query holds the same whatever the index's size (docs/decisions/029-recognition-store.md).
 */
export const MATCH_STEP_ENTRIES = 2 ** 19;
/**
 * Verification: when the scan singles out no track, the best cells of this many tracks are scored
 * again on the query's pairs found in the track within MATCH_OFFSET_TOLERANCE_FRAMES of its line,
 * each peak also a bin off (LandmarkPeaks.neighbours), a pair counted once
 * (docs/decisions/043-recognition-accuracy.md).
 */
export const MATCH_VERIFY_CANDIDATES = 4;
/**
 * The verified best must be the scan's best and stand this far above the next verified track
 * (b + 5 sqrt(b + 1)): at 3.5, as the scan, steady tones and noise matched (043).
 */
export const MATCH_VERIFY_MARGIN = 5;
/**
 * A query must hold peaks at this many different frequencies (hash units, HASH_FREQUENCY_BINS)
 * to be matched at all: a beep, a ring tone or a steady tone repeats a chord of a few frequencies,
 * which lines up with any song that repeats those notes at that pace. The recognition bench's
 * recordings hold 19 or more even at 3 s in noise; its beeps and tones 6 or fewer
 * (docs/decisions/063-repeated-tones.md).
 */
export const MATCH_MIN_FREQUENCIES = 12;
/** A match this sure ends the skew scan early (SKEW_FACTORS are tried in order, 1 first). */
export const MATCH_SURE_ALIGNED = 24;
/**
 * The matcher hashes at most this many peaks of a signature, its first: what a match costs grows
 * with the query's hashes at every step, and a longer signature (the command line's, up to
 * SIGNATURE_MAX_SECONDS) adds little to a match once 12 s did not find one. About 1.5 times the
 * most peaks a real 12 s signature held (docs/decisions/051-bounded-recognition-work.md).
 */
export const MATCH_QUERY_PEAKS = 600;

/** Buckets of a signature's sketch (signature/sketch.ts): a power of two; 16 values of 28 bits. */
export const SKETCH_BUCKETS = 16;

/** Signature binary format. */
export const SIGNATURE_MAGIC = "TWSG";
export const SIGNATURE_VERSION = 1;
/** Reject signatures of recordings longer than this (the last checkpoint is 12 s). */
export const SIGNATURE_MAX_SECONDS = 30;
/** Reject encoded signatures above this size (bytes before base64); 12 s take about 1.5 KB. */
export const SIGNATURE_MAX_BYTES = 8192;
export const SIGNATURE_MAX_BASE64_LENGTH = Math.ceil(SIGNATURE_MAX_BYTES / 3) * 4;
/** The window of SIGNATURE_MAX_PEAKS_PER_SECOND: one second in whole frames (31 of 32 ms). */
export const SIGNATURE_DENSITY_WINDOW_FRAMES = Math.round(SIGNATURE_SAMPLE_RATE / HOP_SIZE);
/**
 * Bounds on what real audio makes, each 1.5 to 1.7 times the most measured on the catalogue's
 * recordings, clean and degraded, whole and at 3-12 s (`npx vite-node bench/signature-density.ts`,
 * docs/decisions/051-bounded-recognition-work.md): a denser or larger signature is made by hand,
 * and matching it would cost more than any recording's.
 */
export const SIGNATURE_MAX_PEAKS_PER_SECOND = 66;
export const SIGNATURE_MAX_PEAKS_PER_FRAME = 24;
export const SIGNATURE_MAX_PEAKS = 1500;

/** Index binary format. */
export const INDEX_MAGIC = "TWIX";
export const INDEX_VERSION = 1;

/**
 * A 24-bit checksum (FNV-1a) of every constant that shapes the index's peaks and hashes, written in
 * the index header: an index built with other parameters is refused instead of matching badly.
 */
export const INDEX_PARAMETERS_CHECKSUM = (() => {
  const text = JSON.stringify([
    SIGNATURE_SAMPLE_RATE,
    RESAMPLER_ZERO_CROSSINGS,
    RESAMPLER_KAISER_BETA,
    RESAMPLER_ROLLOFF,
    FFT_SIZE,
    HOP_SIZE,
    PEAK_BANDS,
    PEAK_NEIGHBOURHOOD_FRAMES,
    PEAK_NEIGHBOURHOOD_BINS,
    PEAK_BACKGROUND_BINS,
    PEAK_MIN_SALIENCE_DB,
    PEAK_FLOOR_DB,
    PEAK_BIN_FRACTION,
    PAIR_MIN_FRAMES,
    PAIR_MAX_FRAMES,
    HASH_FREQUENCY_BINS,
    PAIR_MAX_FREQUENCY_DELTA,
    INDEX_FANOUT,
    HASH_BITS,
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash & 0xffffff;
})();
