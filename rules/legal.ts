/**
 * The figures of the terms of use and the privacy policy (spec 001 §1, §5, §9; 000 §9), named once:
 * the legal texts (app/legal/) are written around them, and tests/unit/legal-figures.test.ts
 * greps the rendered text for each one in the spec's own wording.
 */

/** Spec 001 §1, §5, §9: "The terms state a minimum age of 13" / "the user must be over 13". */
export const minimumAge = 13;
/** Spec 001 §9: "liability cap three months of fees or $15". */
export const liabilityCap = { monthsOfFees: 3, usd: 15 } as const;
/** Spec 001 §9: "arbitration fee coverage for claims under $75,000 with a $1,000 bonus". */
export const arbitration = { feeCoverageBelowUsd: 75_000, bonusUsd: 1_000 } as const;
/** Spec 001 §9: "informal dispute period 15 business days". */
export const informalDisputeBusinessDays = 15;
/** Spec 001 §9: "cooling-off limited to 7 days". */
export const coolingOffDays = 7;
/** Spec 001 §9: "a price of $10.99/month appears in US terms". */
export const usMonthlyPriceUsd = 10.99;
/** Spec 001 §9: "free-trial durations in terms range 1 to 6 months". */
export const trialMonths = { shortest: 1, longest: 6 } as const;
/** When the texts last changed: shown on both pages, so a reader can tell a new version. */
export const legalTextsUpdated = "2026-11-25";

/** US dollars as US terms write them: "$15", "$75,000", "$10.99". */
export function usd(amount: number): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
}

/** Euros-style French amounts for the French terms: "15 $ US", "75 000 $ US". */
export function usdFrench(amount: number): string {
  const number = new Intl.NumberFormat("fr-FR", {
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
  return `${number} $ US`;
}

/** One part of a legal text: its anchor, heading and paragraphs. */
export type LegalSection = {
  id: string;
  heading: string;
  paragraphs: readonly string[];
  /** Pages the section refers to, drawn as links after its text. */
  links?: readonly { href: string; text: string }[];
};
