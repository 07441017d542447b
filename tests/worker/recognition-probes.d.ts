// The recognition probes written with the index (origin/catalog/dist/recognition-probes.json),
// imported as text by tests/worker/webrec.test.ts (Vite's ?raw) and parsed with their schema.
declare module "*recognition-probes.json?raw" {
  const text: string;
  export default text;
}
