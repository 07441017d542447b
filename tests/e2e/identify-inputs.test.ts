import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { trackSchema } from "../../rules/schemas/track";
import { launchBrowser, openPage, personUserAgent, viewports } from "./browser";
import { screenshot } from "./screenshot";

// Issue 46: the other inputs of /identify. A catalogue preview dropped as a file, an undecodable
// file, and another tab playing a preview shared through Chromium's tab capture.

const baseURL = inject("baseURL");

const manifestSchema = v.object({ tracks: v.array(v.object({ key: v.number(), durationMs: v.number() })) });

/** A catalogue track with a preview file, one no other recognition test identifies. */
function previewTrack(at: number): { key: string; file: string } {
  const manifest = v.parse(
    manifestSchema,
    JSON.parse(
      readFileSync(path.join(import.meta.dirname, "../../origin/catalog/dist/catalog.json"), "utf8"),
    ),
  );
  const long = manifest.tracks.filter((track) => track.durationMs > 60_000).sort((a, b) => a.key - b.key);
  const chosen = long[Math.floor(long.length * at)];
  if (!chosen) throw new Error("no recording of a minute or more in the catalogue");
  return {
    key: String(chosen.key),
    file: path.join(import.meta.dirname, `../../public/media/previews/${chosen.key}.ogg`),
  };
}

async function trackOf(key: string) {
  const response = await fetch(`${baseURL}/services/track/v1/en/GB/web/${key}`);
  return v.parse(trackSchema, await response.json());
}

/** Drops a file on the page's file inputs, as a person dragging it from their desktop would. */
async function dropFile(page: Page, name: string, bytes: Buffer, type: string) {
  const inputs = page.getByRole("group", { name: "Other ways to identify" });
  await inputs.waitFor();
  await expect.poll(() => page.getByText("Choose a file").isEnabled(), { timeout: 10_000 }).toBe(true);
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type }));
      return transfer;
    },
    { base64: bytes.toString("base64"), name, type },
  );
  await inputs.dispatchEvent("dragover", { dataTransfer });
  await inputs.dispatchEvent("drop", { dataTransfer });
}

function beaconIdsOf(page: Page): () => (string | null)[] {
  const ids: (string | null)[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/services/metrics/")) ids.push(url.searchParams.get("beaconId"));
  });
  return () => ids;
}

describe("a file", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  test("a catalogue preview dropped on /identify lands on its track page", async () => {
    const preview = previewTrack(0.3);
    const track = await trackOf(preview.key);
    const { page, errors } = await openPage(browser, {
      viewport: viewports.desktop,
      userAgent: personUserAgent,
    });
    const beaconIds = beaconIdsOf(page);
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && !request.url().includes("/services/webrec/match"))
        uploads.push(request.url());
    });
    await page.goto(`${baseURL}/identify`);
    await screenshot(page, "identify-inputs-desktop");
    await dropFile(page, `${preview.key}.ogg`, readFileSync(preview.file), "audio/ogg");
    await page.waitForURL((url) => url.pathname === `/track/${track.key}/${track.alias}`, {
      timeout: 30_000,
    });
    await expect.poll(beaconIds, { timeout: 5_000 }).toContain("webrec.file.match");
    expect(beaconIds()).toContain("webrec.file.start");
    expect(beaconIds()).not.toContain("webrec.start");
    // The audio never leaves the browser: the only POSTs are the signatures' match requests.
    expect(uploads).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("a file the browser cannot decode shows its message, and another can be tried", async () => {
    const { page } = await openPage(browser, { viewport: viewports.phone, userAgent: personUserAgent });
    const beaconIds = beaconIdsOf(page);
    await page.goto(`${baseURL}/identify`);
    await screenshot(page, "identify-inputs-phone");
    await dropFile(
      page,
      "notes.mp3",
      Buffer.from("these are not the droids you are looking for"),
      "audio/mpeg",
    );
    const message = page.getByText(
      "Your browser can't play this file. Try another one, such as an MP3 or a WAV.",
    );
    await message.waitFor({ timeout: 10_000 });
    await expect.poll(beaconIds, { timeout: 5_000 }).toContain("webrec.file.error");
    await screenshot(page, "identify-file-unreadable-phone");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByText("Choose a file").waitFor();
  });
});
