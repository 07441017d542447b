import { expect, test } from "vitest";
import { ampCss, byteLength, checkCssBudget, classesOf, cssBudgetBytes, inlineStylesOf } from "#amp/css.ts";
import { stylesheetFiles, stylesheetText } from "#tests/amp-stylesheets.ts";

test.each([
  ["!important is dropped, the declaration kept", "a{color:red !important}", "a{color:red}"],
  ["!important with spaces and any case", "a{color:red ! IMPORTANT;margin:0}", "a{color:red;margin:0}"],
  ["@import is removed", '@import url("x.css");a{color:red}', "a{color:red}"],
  ["@charset is removed", '@charset "utf-8";a{color:red}', "a{color:red}"],
  ["@layer and other unknown at-rules are removed", "@layer base{a{color:red}}b{margin:0}", "b{margin:0}"],
  ["behavior is removed", "a{behavior:url(x.htc);color:red}", "a{color:red}"],
  ["-moz-binding is removed", "a{-moz-binding:url(x.xml);color:red}", "a{color:red}"],
  ["a progid filter is removed", "a{filter:progid:DXImageTransform.Microsoft.Alpha(opacity=50)}", ""],
  ["i-amphtml- selectors are removed", ".i-amphtml-sizer{display:none}a{color:red}", "a{color:red}"],
  ["comments are removed", "/* x */a{/* y */color:red}", "a{color:red}"],
  ["whitespace is squeezed", "a ,\n b  {\n  color :  red ;\n}\n", "a,b{color:red}"],
  [
    "media blocks are kept and cleaned",
    "@media (min-width: 650px) { a { color: red !important } }",
    "@media (min-width: 650px){a{color:red}}",
  ],
  [
    "supports blocks are kept",
    "@supports (display: grid) { a { display: grid } }",
    "@supports (display: grid){a{display:grid}}",
  ],
  [
    "keyframes are kept",
    "@keyframes spin { from { opacity: 0 } to { opacity: 1 } }",
    "@keyframes spin{from{opacity:0}to{opacity:1}}",
  ],
  ["strings keep their ; { and spaces", 'a::before{content:"a; {b}  c"}', 'a::before{content:"a; {b}  c"}'],
  [
    "parentheses keep their ;",
    "a{background:url(data:image/png;base64,AA)}",
    "a{background:url(data:image/png;base64,AA)}",
  ],
  [
    "descendant combinators keep their space",
    ".track-hero :focus-visible{outline-color:#fff}",
    ".track-hero :focus-visible{outline-color:#fff}",
  ],
  ["empty rules go", "a{}b{color:red}", "b{color:red}"],
])("ampCss: %s", (_name, input, expected) => {
  expect(ampCss([input]).css).toBe(expected);
});

// Rules kept for a page whose markup uses the classes "row" and "row__title" only.
test.each([
  ["element and :root rules stay", ":root{--x:1}a{color:red}", ":root{--x:1}a{color:red}"],
  ["a rule of a used class stays", ".row{margin:0}", ".row{margin:0}"],
  ["a rule of an unused class goes", ".tile{margin:0}", ""],
  ["a rule needing a used and an unused class goes", ".row .tile{margin:0}", ""],
  ["one usable selector keeps the whole list", ".tile,.row__title{margin:0}", ".tile,.row__title{margin:0}"],
  ["classes inside :not() do not count", "a:not(.tile){color:red}", "a:not(.tile){color:red}"],
  ["nor do attribute values", 'a[href$=".pdf"]{color:red}', 'a[href$=".pdf"]{color:red}'],
  ["classes inside :is() do not count either", ":is(.tile,.x) a{color:red}", ":is(.tile,.x) a{color:red}"],
  [
    "media blocks keep their used rules",
    "@media (min-width:650px){.row{margin:0}.tile{margin:0}}",
    "@media (min-width:650px){.row{margin:0}}",
  ],
  ["media blocks left empty go", "@media (min-width:650px){.tile{margin:0}}", ""],
  ["keyframes stay", "@keyframes spin{to{opacity:1}}", "@keyframes spin{to{opacity:1}}"],
])("ampCss for a page's classes: %s", (_name, input, expected) => {
  const used = classesOf('<li class="row"><a class="row__title" href="/a">A</a><span class="">x</span></li>');
  expect([...used].sort()).toEqual(["row", "row__title"]);
  expect(ampCss([input], used).css).toBe(expected);
});

test("ampCss reports what it removed", () => {
  const { removed } = ampCss([
    '@import "x.css";a{color:red !important;behavior:url(x)}.i-amphtml-x{color:red}',
  ]);
  expect(removed).toEqual([
    'at-rule: @import "x.css"',
    "!important in color",
    "forbidden property: behavior",
    "selector: .i-amphtml-x",
  ]);
});

test("ampCss never lets markup through", () => {
  expect(() => ampCss(['a::before{content:"</style><script>"}'])).toThrow(/markup/);
  expect(() => ampCss(["a{color:red"])).toThrow(/unterminated/);
});

test("every stylesheet of the site converts with nothing removed and no !important", () => {
  for (const name of stylesheetFiles) {
    const text = stylesheetText(name);
    expect(text.length, name).toBeGreaterThan(0);
    const { css, removed } = ampCss([text]);
    expect(removed, name).toEqual([]);
    expect(css, name).not.toMatch(/!\s*important/i);
    expect(css.length, name).toBeLessThan(text.length);
  }
});

test("all stylesheets together fit AMP's budget", () => {
  const all = stylesheetFiles.map(stylesheetText);
  const { css } = ampCss(all);
  const budget = checkCssBudget(css, []);
  expect(budget.totalBytes).toBeLessThanOrEqual(cssBudgetBytes);
  expect(budget.customBytes).toBe(byteLength(css));
});

test("the budget counts inline styles and refuses a page over 75 000 bytes", () => {
  const rule = "a{color:red}";
  const almost = rule.repeat(Math.floor(cssBudgetBytes / rule.length));
  expect(checkCssBudget(almost, []).totalBytes).toBeLessThanOrEqual(cssBudgetBytes);
  expect(() => checkCssBudget(almost, ["--track-bg:#123456;".repeat(10)])).toThrow(/over the budget/);
  expect(() => checkCssBudget("", ["a".repeat(1001)])).toThrow(/inline style of 1001 bytes/);
  expect(checkCssBudget("é", ["x"])).toEqual({ customBytes: 2, inlineBytes: 1, totalBytes: 3 });
});

test("inlineStylesOf finds every style attribute of rendered markup", () => {
  expect(inlineStylesOf('<p style="a:b">x</p><p>style="no"</p><i style="c:d"></i>')).toEqual(["a:b", "c:d"]);
});
