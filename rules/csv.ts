/**
 * CSV as every download of the site writes it (chart downloads, the library export, the privacy
 * archive): one rule, shared by the site and the embedded origin.
 */

/**
 * A spreadsheet cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled.
 * Text that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return)
 * is prefixed with an apostrophe first (OWASP "CSV injection"); numbers and booleans are written as
 * they are.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row as CSV text: comma separated, ended by CRLF (RFC 4180). */
export function csvRow(row: readonly (string | number | boolean | null)[]): string {
  return `${row.map(csvField).join(",")}\r\n`;
}

/** Rows of cells as CSV text: comma separated, CRLF line ends (RFC 4180), a final line break. */
export function toCsv(rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  return rows.map(csvRow).join("");
}

/** The media type of a CSV download with a header row (RFC 4180 §3). */
export const csvContentType = "text/csv; charset=utf-8; header=present";
