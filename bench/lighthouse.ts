import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as v from "valibot";

/** The first bench's "performance, accessibility, best practices and SEO". */
export const lighthouseCategories = ["performance", "accessibility", "best-practices", "seo"] as const;
export type LighthouseCategory = (typeof lighthouseCategories)[number];

/** Debian's Chromium, headless; the team's flags for shared machines. */
export const chromeFlags = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
];
const runTimeoutMs = 120_000;

const reportSchema = v.object({
  runtimeError: v.optional(v.object({ code: v.string(), message: v.string() })),
  categories: v.record(
    v.string(),
    v.object({
      score: v.nullable(v.number()),
      auditRefs: v.array(v.object({ id: v.string(), weight: v.number() })),
    }),
  ),
  audits: v.record(
    v.string(),
    v.object({
      id: v.string(),
      title: v.string(),
      score: v.nullable(v.number()),
      scoreDisplayMode: v.string(),
      numericValue: v.optional(v.number()),
      details: v.optional(v.unknown()),
    }),
  ),
});

/** The `resource-summary` audit's table: bytes per resource type. */
const resourceSummarySchema = v.object({
  items: v.array(v.object({ resourceType: v.string(), transferSize: v.number() })),
});

export type LighthouseResult = {
  url: string;
  scores: Record<LighthouseCategory, number | null>;
  /** Weighted audits that cost points: below 1 outside performance, below 0.9 (a good metric) in it. */
  failing: { category: LighthouseCategory; id: string; title: string; score: number }[];
  /** Script bytes the page really transferred (resource-summary), a check on the manifest's figure. */
  scriptTransferBytes: number | undefined;
  /** The simulated first contentful paint (ms), the metric our pages lose points on. */
  firstContentfulPaintMs: number | undefined;
};

/** One page with the lighthouse CLI (mobile preset, the default), in a Chromium of its own. */
export async function runLighthouse(
  root: string,
  url: string,
  chromePath: string,
  /** Sent with every request of the page (a signed-in page's session cookie). */
  extraHeaders?: Record<string, string>,
): Promise<LighthouseResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "tunewave-lighthouse-"));
  const output = path.join(dir, "report.json");
  try {
    await promisify(execFile)(
      path.join(root, "node_modules/.bin/lighthouse"),
      [
        url,
        "--quiet",
        "--output=json",
        `--output-path=${output}`,
        `--only-categories=${lighthouseCategories.join(",")}`,
        `--chrome-flags=${chromeFlags.join(" ")}`,
        ...(extraHeaders ? [`--extra-headers=${JSON.stringify(extraHeaders)}`] : []),
      ],
      {
        env: { ...process.env, CHROME_PATH: chromePath },
        timeout: runTimeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = v.parse(reportSchema, JSON.parse(readFileSync(output, "utf8")));
    if (report.runtimeError) throw new Error(`${report.runtimeError.code}: ${report.runtimeError.message}`);
    const scores = Object.fromEntries(
      lighthouseCategories.map((category) => {
        const score = report.categories[category]?.score;
        return [category, score === null || score === undefined ? null : Math.round(score * 100)];
      }),
    ) as Record<LighthouseCategory, number | null>;
    const failing = lighthouseCategories.flatMap((category) =>
      (report.categories[category]?.auditRefs ?? []).flatMap(({ id, weight }) => {
        const audit = report.audits[id];
        if (!audit || audit.score === null || weight === 0) return [];
        const threshold = category === "performance" ? 0.9 : 1;
        return audit.score < threshold ? [{ category, id, title: audit.title, score: audit.score }] : [];
      }),
    );
    const summary = v.safeParse(resourceSummarySchema, report.audits["resource-summary"]?.details);
    const scripts = summary.success
      ? summary.output.items.find((item) => item.resourceType === "script")
      : undefined;
    return {
      url,
      scores,
      failing,
      scriptTransferBytes: scripts?.transferSize,
      firstContentfulPaintMs: report.audits["first-contentful-paint"]?.numericValue,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
