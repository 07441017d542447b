// Imported for its effect by the tests that read the strings of any language: every language's
// strings loaded before the test module runs (the worker loads a request's own: decision 061).
import { loadLanguages, resources } from "#locales/index.ts";

await loadLanguages(Object.keys(resources));
