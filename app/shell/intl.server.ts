// The isolate's Intl formatters (rules/intl.ts) for route modules' loaders. Imported directly, the
// module left an empty chunk and one more request in those pages' first visit; a `.server` module
// leaves nothing in the browser build (decision 050).
export { dateTimeFormat, numberFormat } from "#rules/intl.ts";
