/**
 * JSON to write inside a `<script>` element (JSON-LD, the loader data a document hands the client
 * router): `<`, `>`, `&` and the line separators as escapes, so no string of the data can close the
 * script element, and the text stays the same JSON and the same JavaScript.
 */
export function scriptJsonText(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}
