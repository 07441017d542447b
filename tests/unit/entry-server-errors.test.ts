import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { afterEach, expect, test, vi } from "vitest";
import { handleError } from "#app/entry.server.tsx";

// What the server logs of an error Remix hands it (decision 028): faults, not the 4xx answers Remix
// gives hostile or mistaken requests itself.

afterEach(() => vi.restoreAllMocks());

const thrown = new Error("loader failed");
const aborted = new AbortController();
aborted.abort();

// [case, error, request aborted, what is logged (undefined: nothing)]
const cases: [string, unknown, boolean, unknown][] = [
  [
    "a POST to a page without a form (Remix's 405)",
    new ErrorResponse(405, "Method Not Allowed", new Error("no action"), true),
    false,
    undefined,
  ],
  [
    "no route (Remix's 404)",
    new ErrorResponse(404, "Not Found", new Error("no route"), true),
    false,
    undefined,
  ],
  ["a fault in a loader", thrown, false, thrown],
  ["a fault Remix wrapped in a 500", new ErrorResponse(500, "", thrown, true), false, thrown],
  ["a fault of a request the visitor gave up", thrown, true, undefined],
];

test.each(cases)("%s", (_, error, wasAborted, logged) => {
  const log = vi.spyOn(console, "error").mockImplementation(() => {});
  const request = new Request("https://tunewave.test/search", {
    method: "POST",
    signal: wasAborted ? aborted.signal : undefined,
  });
  handleError(error, { request });
  if (logged === undefined) expect(log).not.toHaveBeenCalled();
  else expect(log).toHaveBeenCalledWith(logged);
});
