/**
 * One voice per language (locales/STYLE.md): the words of the register a language does not use,
 * found in its strings. A word list tells the registers apart by pronouns, possessives and a few
 * verb forms; it cannot judge verb forms in general, so Japanese and Korean (politeness by verb
 * endings) are not listed, and a stray that avoids every listed word passes.
 */
import { flatten } from "./locales-completeness";

export type Register = {
  /** The register the language speaks, as locales/STYLE.md names it. */
  readonly speaks: string;
  /** Words of the other register. */
  readonly otherWords: readonly string[];
  /** Compare case: German "Sie" (you) is not "sie" (she, they), Polish "Pan" is not "pan". */
  readonly matchCase?: boolean;
  /** Look for the words anywhere in the text, for scripts without spaces between words (Chinese). */
  readonly inText?: boolean;
};

export type Stray = { lang: string; namespace: string; key: string; word: string };

/**
 * The registers the check knows, by language key. A language missing here is not checked (en and
 * gb have no T–V distinction; ja and ko mark politeness in verb endings).
 */
export const registers: Readonly<Record<string, Register>> = {
  de: {
    speaks: "du",
    otherWords: ["Sie", "Ihr", "Ihre", "Ihren", "Ihrem", "Ihrer", "Ihres", "Ihnen"],
    matchCase: true,
  },
  el: {
    speaks: "εσείς",
    otherWords: [
      "σου",
      "σένα",
      "εσύ",
      "είσαι",
      "έχεις",
      "μπορείς",
      "θέλεις",
      "δοκίμασε",
      "άνοιξε",
      "πάτησε",
      "διάλεξε",
      "επίλεξε",
      "δες",
      "βρες",
      "πες",
      "πάρε",
      "γράψε",
      "έλα",
    ],
  },
  tr: { speaks: "siz", otherWords: ["sen", "seni", "sana", "senin", "sende", "senden", "seninle"] },
  fr: { speaks: "vous", otherWords: ["tu", "te", "toi", "ton", "ta", "tes"] },
  es: { speaks: "tú", otherWords: ["usted", "ustedes"] },
  "es-es": { speaks: "tú", otherWords: ["usted", "ustedes"] },
  "es-mx": { speaks: "tú", otherWords: ["usted", "ustedes"] },
  // Capitalised courtesy forms only: lower-case "lei", "sua" are she, his/her.
  it: { speaks: "tu", otherWords: ["Lei", "Suo", "Sua", "Suoi", "Sue"], matchCase: true },
  pt: { speaks: "você", otherWords: ["tu", "te", "ti", "teu", "tua", "teus", "tuas", "contigo"] },
  "pt-br": { speaks: "você", otherWords: ["tu", "ti", "teu", "tua", "teus", "tuas", "contigo"] },
  nl: { speaks: "je", otherWords: ["u", "uw"] },
  pl: {
    speaks: "ty",
    otherWords: ["Pan", "Pani", "Pana", "Panu", "Panem", "Państwo", "Państwa", "Państwu"],
    matchCase: true,
  },
  // Not "ty" or "ti": they are also "those".
  cs: {
    speaks: "vy",
    otherWords: [
      "tebe",
      "tobě",
      "tebou",
      "tvůj",
      "tvoje",
      "tvá",
      "tvé",
      "tvého",
      "tvém",
      "tvým",
      "tvou",
      "tvých",
    ],
  },
  ru: {
    speaks: "вы",
    otherWords: [
      "ты",
      "тебя",
      "тебе",
      "тобой",
      "твой",
      "твоя",
      "твоё",
      "твое",
      "твои",
      "твоего",
      "твоей",
      "твоих",
      "твоим",
      "твою",
      "твоими",
    ],
  },
  hi: {
    speaks: "आप",
    otherWords: ["तुम", "तू", "तेरा", "तेरी", "तेरे", "तुम्हारा", "तुम्हारी", "तुम्हारे", "तुम्हें"],
  },
  // The -mu suffix (negaramu) is not listed: it ends ordinary words too (ketemu).
  id: { speaks: "Anda", otherWords: ["kamu", "kau", "engkau"] },
  "zh-cn": { speaks: "你", otherWords: ["您"], inText: true },
  "zh-tw": { speaks: "你", otherWords: ["您"], inText: true },
};

/** Variables and markup are not words of the language. */
const notWords = /\{\{[^}]*\}\}|<\/?[^>]*>/g;
/** A word: letters with their combining marks (Devanagari vowel signs are marks). */
const word = /[\p{L}\p{M}]+/gu;

function wordsOf(text: string, register: Register): string[] {
  const plain = text.replace(notWords, " ");
  if (register.inText) return register.otherWords.filter((other) => plain.includes(other));
  const others = new Set(
    register.otherWords.map((other) => (register.matchCase ? other : other.toLocaleLowerCase())),
  );
  return (plain.match(word) ?? []).filter((found) =>
    others.has(register.matchCase ? found : found.toLocaleLowerCase()),
  );
}

/**
 * Every use of another register's word, except those allowed: `"{lang}:{namespace}:{key} {word}"`
 * entries, for a word that means something else there (German "Sie" for "she" or "they").
 */
export function findRegisterStrays(
  resources: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  languageRegisters: Readonly<Record<string, Register>>,
  allowed: readonly string[],
): Stray[] {
  const allowedSet = new Set(allowed);
  const strays: Stray[] = [];
  for (const [lang, register] of Object.entries(languageRegisters)) {
    for (const [namespace, tree] of Object.entries(resources[lang] ?? {})) {
      for (const [key, value] of flatten(tree as Record<string, unknown>)) {
        if (typeof value !== "string") continue;
        for (const found of wordsOf(value, register)) {
          if (!allowedSet.has(`${lang}:${namespace}:${key} ${found}`))
            strays.push({ lang, namespace, key, word: found });
        }
      }
    }
  }
  return strays;
}
