/**
 * Intl formatters kept for the isolate's life (docs/decisions/056-cheaper-renders.md).
 * Making one in workerd costs far more than using it (its locale data is looked up and copied):
 * a concert list made ten per concert and spent 40 % of its render there. A formatter holds no
 * state between calls, so one per locale and options serves every request. Bounded: the oldest
 * is dropped past `maxFormatters` (event time zones × languages × formats).
 */

const maxFormatters = 1000;
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const relativeTimeFormats = new Map<string, Intl.RelativeTimeFormat>();

function kept<F>(table: Map<string, F>, key: string, make: () => F): F {
  const held = table.get(key);
  if (held !== undefined) return held;
  const made = make();
  if (table.size >= maxFormatters) table.delete(table.keys().next().value as string);
  table.set(key, made);
  return made;
}

/** `new Intl.DateTimeFormat(locale, options)`, made once; throws as it does (an unknown time zone). */
export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return kept(
    dateTimeFormats,
    `${locale} ${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(locale, options),
  );
}

/** `new Intl.NumberFormat(locale, options)`, made once. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept(
    numberFormats,
    `${locale} ${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
  );
}

/** How long ago `thenMs` was, in the locale's words ("12 minutes ago", "vor 3 Tagen"), in the largest whole unit. */
export function timeAgo(thenMs: number, nowMs: number, locale: string): string {
  const format = kept(
    relativeTimeFormats,
    locale,
    () => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }),
  );
  const seconds = Math.max(0, Math.floor((nowMs - thenMs) / 1000));
  if (seconds < 60) return format.format(-seconds, "second");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, "hour");
  return format.format(-Math.floor(hours / 24), "day");
}
