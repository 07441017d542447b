import { existsSync, readFileSync } from "node:fs";
import * as v from "valibot";
import { atLeast, atMost, type Row } from "./budgets";

/** The part of bench/results/recognition.json (written by `npx vite-node bench/recognition.ts`) the table shows. */
const recognitionSchema = v.object({
  date: v.string(),
  summary: v.object({
    accuracy3sAt0dB: v.number(),
    accuracy6sAt0dB: v.number(),
    falseMatchRate: v.number(),
    matchP50Ms: v.number(),
    matchP99Ms: v.number(),
    indexMegabytesPerHour: v.number(),
  }),
  targets: v.object({
    accuracy3sAt0dB: v.number(),
    accuracy6sAt0dB: v.number(),
    falseMatchRate: v.number(),
    p50Ms: v.number(),
  }),
});

export type RecognitionSummary = v.InferOutput<typeof recognitionSchema>;

export function readRecognition(file: string): RecognitionSummary | undefined {
  if (!existsSync(file)) return undefined;
  return v.parse(recognitionSchema, JSON.parse(readFileSync(file, "utf8")));
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}

export function recognitionRows(recognition: RecognitionSummary | undefined): Row[] {
  const area = "recognition";
  if (!recognition)
    return [
      {
        area,
        item: "bench/recognition.ts",
        figure: "no bench/results/recognition.json",
        budget: "",
        verdict: "not run",
      },
    ];
  const { summary, targets } = recognition;
  const of = `(run ${recognition.date.slice(0, 10)})`;
  return [
    {
      area,
      item: `top-1, 3 s at 0 dB ${of}`,
      figure: percent(summary.accuracy3sAt0dB),
      budget: `≥ ${percent(targets.accuracy3sAt0dB)}`,
      verdict: atLeast(summary.accuracy3sAt0dB, targets.accuracy3sAt0dB),
    },
    {
      area,
      item: "top-1, 6 s at 0 dB",
      figure: percent(summary.accuracy6sAt0dB),
      budget: `≥ ${percent(targets.accuracy6sAt0dB)}`,
      verdict: atLeast(summary.accuracy6sAt0dB, targets.accuracy6sAt0dB),
    },
    {
      area,
      item: "false matches",
      figure: percent(summary.falseMatchRate),
      budget: `≤ ${percent(targets.falseMatchRate)}`,
      verdict: atMost(summary.falseMatchRate, targets.falseMatchRate),
    },
    {
      area,
      item: "match p50 / p99",
      figure: `${summary.matchP50Ms.toFixed(1)} / ${summary.matchP99Ms.toFixed(1)} ms`,
      budget: `p50 ≤ ${targets.p50Ms} ms`,
      verdict: atMost(summary.matchP50Ms, targets.p50Ms),
    },
    {
      area,
      item: "index size",
      figure: `${summary.indexMegabytesPerHour.toFixed(2)} MB per hour of audio`,
      budget: "",
      verdict: "info",
    },
  ];
}
