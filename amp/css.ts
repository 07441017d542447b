/**
 * The one `<style amp-custom>` of an AMP page: the site's own stylesheets, stripped of what AMP
 * forbids and minified, and the byte budget AMP allows it together with inline `style` attributes.
 * https://amp.dev/documentation/guides-and-tutorials/develop/style_and_layout/style_pages
 */

/** AMP: "the style amp-custom tag and inline style attributes together may hold at most 75,000 bytes". */
export const cssBudgetBytes = 75_000;
/** AMP: an inline `style` attribute holds at most 1,000 bytes. */
export const inlineStyleLimitBytes = 1_000;

/** At-rules AMP accepts in `<style amp-custom>`; any other (@import, @charset, @layer, …) is removed. */
const allowedAtRules = new Set([
  "media",
  "supports",
  "font-face",
  "keyframes",
  "-webkit-keyframes",
  "-moz-keyframes",
  "-o-keyframes",
  "page",
]);
/** At-rules whose block holds rules (checked one by one) rather than declarations. */
const groupingAtRules = new Set(["media", "supports"]);
/** Properties AMP forbids outright. */
const forbiddenProperties = new Set(["behavior", "-moz-binding"]);

export type AmpCss = {
  css: string;
  /** What was removed, one entry per rule, at-rule or declaration, for tests and logs. */
  removed: string[];
};

type Block = { prelude: string; body: string | undefined };

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Comments out, outside strings. */
function withoutComments(text: string): string {
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? "";
    if (quote) {
      out += char;
      if (char === "\\") {
        out += text[i + 1] ?? "";
        i += 1;
      } else if (char === quote) {
        quote = undefined;
      }
    } else if (char === '"' || char === "'") {
      quote = char;
      out += char;
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      out += " ";
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * Splits a stylesheet (or a block's content) into its statements at depth 0: a prelude with a
 * `{…}` body, or a statement ended by `;` (body undefined). Strings and parentheses are respected.
 */
function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let start = 0;
  let depth = 0;
  let parens = 0;
  let quote: string | undefined;
  let bodyStart = -1;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote) {
      if (char === "\\") i += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === "(") parens += 1;
    else if (char === ")") parens = Math.max(0, parens - 1);
    else if (parens > 0) continue;
    else if (char === "{") {
      if (depth === 0) bodyStart = i;
      depth += 1;
    } else if (char === "}") {
      depth -= 1;
      if (depth === 0) {
        blocks.push({ prelude: text.slice(start, bodyStart), body: text.slice(bodyStart + 1, i) });
        start = i + 1;
      }
      if (depth < 0) throw new Error("AMP CSS: unbalanced }");
    } else if (char === ";" && depth === 0) {
      blocks.push({ prelude: text.slice(start, i), body: undefined });
      start = i + 1;
    }
  }
  if (depth !== 0 || quote) throw new Error("AMP CSS: unterminated block or string");
  const rest = text.slice(start).trim();
  if (rest !== "") blocks.push({ prelude: rest, body: undefined });
  return blocks.filter((block) => block.prelude.trim() !== "" || block.body !== undefined);
}

/** `text` split at each `separator` outside strings, parentheses and brackets. */
function splitOutside(text: string, separator: ";" | ","): string[] {
  const pieces: string[] = [];
  let start = 0;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote) {
      if (char === "\\") i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "(" || char === "[") depth += 1;
    else if (char === ")" || char === "]") depth = Math.max(0, depth - 1);
    else if (char === separator && depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** Declarations of a block: split at `;` outside strings and parentheses, empty ones dropped. */
function splitDeclarations(body: string): string[] {
  return splitOutside(body, ";")
    .map((declaration) => declaration.trim())
    .filter((declaration) => declaration !== "");
}

/** Whitespace runs to one space, none next to `{};,` or after `:` in declarations; strings kept. */
function squeeze(text: string): string {
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? "";
    if (quote) {
      out += char;
      if (char === "\\") {
        out += text[i + 1] ?? "";
        i += 1;
      } else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    if (/\s/.test(char)) {
      if (!out.endsWith(" ")) out += " ";
      continue;
    }
    if (char === ",") out = out.trimEnd();
    out += char;
    if (char === ",") while (/\s/.test(text[i + 1] ?? "")) i += 1;
  }
  return out.trim();
}

function cleanDeclaration(declaration: string, removed: string[]): string | undefined {
  const colon = declaration.indexOf(":");
  if (colon === -1) {
    removed.push(`declaration without value: ${declaration}`);
    return undefined;
  }
  const property = declaration.slice(0, colon).trim().toLowerCase();
  let value = squeeze(declaration.slice(colon + 1));
  if (forbiddenProperties.has(property)) {
    removed.push(`forbidden property: ${property}`);
    return undefined;
  }
  if (property === "filter" && /progid\s*:/i.test(value)) {
    removed.push("filter: progid");
    return undefined;
  }
  if (/!\s*important/i.test(value)) {
    removed.push(`!important in ${property}`);
    value = value.replace(/\s*!\s*important/gi, "").trim();
  }
  return `${declaration.slice(0, colon).trim()}:${value}`;
}

function cleanDeclarations(body: string, removed: string[]): string {
  return splitDeclarations(body)
    .flatMap((declaration) => cleanDeclaration(declaration, removed) ?? [])
    .join(";");
}

function cleanBlocks(text: string, removed: string[], used: ReadonlySet<string> | undefined): string {
  let out = "";
  for (const { prelude, body } of splitBlocks(text)) {
    const head = squeeze(prelude);
    if (head.startsWith("@")) {
      const name = /^@([-\w]+)/.exec(head)?.[1]?.toLowerCase() ?? "";
      if (!allowedAtRules.has(name) || body === undefined) {
        removed.push(`at-rule: ${head}`);
        continue;
      }
      const inner = groupingAtRules.has(name)
        ? cleanBlocks(body, removed, used)
        : cleanKeyframesOrDeclarations(name, body, removed);
      if (inner !== "") out += `${head}{${inner}}`;
      continue;
    }
    if (body === undefined) {
      removed.push(`stray text: ${head}`);
      continue;
    }
    if (/i-amphtml-/i.test(head)) {
      removed.push(`selector: ${head}`);
      continue;
    }
    if (used && !canMatch(head, used)) continue;
    const declarations = cleanDeclarations(body, removed);
    if (declarations !== "") out += `${head}{${declarations}}`;
  }
  return out;
}

function cleanKeyframesOrDeclarations(name: string, body: string, removed: string[]): string {
  if (!name.endsWith("keyframes")) return cleanDeclarations(body, removed);
  return splitBlocks(body)
    .map(({ prelude, body: frame }) => `${squeeze(prelude)}{${cleanDeclarations(frame ?? "", removed)}}`)
    .join("");
}

/**
 * Whether a rule can apply to markup whose class attributes hold only the `used` classes: one of
 * its selectors needs no other class. Classes inside :not() match by their absence, and those inside
 * :is(), :where() and :has() are alternatives or relatives: they do not count (the rule stays).
 */
function canMatch(selectorList: string, used: ReadonlySet<string>): boolean {
  return splitOutside(selectorList, ",").some((selector) => {
    // Attribute values (a[href$=".pdf"]) hold no classes either.
    const needed = selector.replace(/:(?:not|is|where|has)\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\]/g, "");
    return [...needed.matchAll(/\.(-?[_a-zA-Z][-_a-zA-Z0-9]*)/g)].every((match) => used.has(match[1] ?? ""));
  });
}

/** The classes the `class` attributes of rendered markup use (React writes them double-quoted). */
export function classesOf(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of (match[1] ?? "").split(/\s+/)) if (name !== "") classes.add(name);
  }
  return classes;
}

/**
 * The site's stylesheets as one AMP stylesheet: comments out, `@import`/`@charset` and other
 * at-rules AMP does not know out, `!important` dropped from its declaration, forbidden properties
 * and `i-amphtml-` selectors out, whitespace squeezed. A `</style` can never survive: it is not CSS.
 * Given the classes a page uses, rules that need any other class are left out too: AMP documents
 * carry their CSS inline, so every unused rule is bytes on every page view.
 */
export function ampCss(sources: readonly string[], usedClasses?: ReadonlySet<string>): AmpCss {
  const removed: string[] = [];
  const css = sources.map((source) => cleanBlocks(withoutComments(source), removed, usedClasses)).join("");
  if (/<\/?style/i.test(css) || css.includes("<")) throw new Error("AMP CSS: markup inside a stylesheet");
  return { css, removed };
}

/** The values of the `style` attributes of rendered markup (React writes them double-quoted). */
export function inlineStylesOf(html: string): string[] {
  return [...html.matchAll(/\sstyle="([^"]*)"/g)].map((match) => match[1] ?? "");
}

export type CssBudget = { customBytes: number; inlineBytes: number; totalBytes: number };

/** Throws when the page's CSS is over AMP's budget: an invalid page must never be served. */
export function checkCssBudget(customCss: string, inlineStyles: readonly string[]): CssBudget {
  const customBytes = byteLength(customCss);
  let inlineBytes = 0;
  for (const style of inlineStyles) {
    const bytes = byteLength(style);
    if (bytes > inlineStyleLimitBytes) throw new Error(`AMP CSS: an inline style of ${bytes} bytes`);
    inlineBytes += bytes;
  }
  const totalBytes = customBytes + inlineBytes;
  if (totalBytes > cssBudgetBytes) {
    throw new Error(`AMP CSS: ${totalBytes} bytes, over the budget of ${cssBudgetBytes}`);
  }
  return { customBytes, inlineBytes, totalBytes };
}
