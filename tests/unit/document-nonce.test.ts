import { describe, expect, test } from "vitest";
import { documentWithNonce } from "#edge/document-cache.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);
const stored = "AAAAAAAAAAAAAAAAAAAAAA==";
const fresh = "Jw4E5VM4+5+IhGnzjMG+4Q==";

describe("a stored document gets the answer's nonce in place", () => {
  test.each([
    [
      "every nonce attribute, head and body",
      `<link rel="modulepreload" nonce="${stored}"/><p>x</p><script nonce="${stored}">a()</script>`,
      `<link rel="modulepreload" nonce="${fresh}"/><p>x</p><script nonce="${fresh}">a()</script>`,
    ],
    [
      "text and attribute values that only look like one stay as they are",
      `<p title="nonce=&quot;${stored}&quot;">nonce=&quot;x&quot;</p><script nonce="${stored}">({"a":" nonce=\\"${stored}\\""})</script>`,
      `<p title="nonce=&quot;${stored}&quot;">nonce=&quot;x&quot;</p><script nonce="${fresh}">({"a":" nonce=\\"${stored}\\""})</script>`,
    ],
    ["a document without one", "<p>no script</p>", "<p>no script</p>"],
    ["values of another length: the rewriter's job", `<script nonce="short"></script>`, undefined],
    ["values of two lengths", `<script nonce="${stored}"></script><script nonce="x"></script>`, undefined],
  ])("%s", (_name, document, expected) => {
    const body = encode(document);
    expect(decode(documentWithNonce(body, fresh))).toBe(expected);
    // The stored copy itself is never written: the next answer starts from it again.
    expect(decode(body)).toBe(document);
    expect(decode(documentWithNonce(body, fresh))).toBe(expected);
  });
});
