import type { PrivacyHrefs } from "#app/privacy/privacy.tsx";
import { type LegalSection, minimumAge } from "#rules/legal.ts";
import { privacyAnswerDays, transferNoticeDeletionDays } from "#rules/privacy.ts";

// Tunewave's privacy policy, written for this project. It states the rules the code runs on and
// points to the pages that show the exact numbers (/privacy/data-categories reads them from the
// constants). Spec 000 §9 / 001 §9: requests are answered within 30 days and deletion completes
// within 30 days, while the transfer notice says 60: both readings are given (spec README).

export function privacyPolicySections(hrefs: PrivacyHrefs & { terms: string }): readonly LegalSection[] {
  return [
    {
      id: "who",
      heading: "Who we are",
      paragraphs: [
        "Tunewave runs this website, its /amp pages and the Tunewave app. This policy says what personal data we process when you use them, why, for how long, and what you can do about it.",
      ],
    },
    {
      id: "what",
      heading: "What we collect",
      paragraphs: [
        "Without an account: a random browser id and your language and country choices in cookies, the pages you open and the songs you identify as statistics tied to that random id, and the fingerprint of the sound when you use recognition (never the recording itself).",
        "With an account: your e-mail address, your sign-in sessions and the library of songs you identified. If you answer the satisfaction survey, we keep your answers with a random receipt that only your browser holds (never your browser id), to count one answer per browser; answers sent while signed in are kept with your account, one per account, until you delete it. If you ask for artist verification, we keep the name, e-mail address and links you give us, with your account when you are signed in. If you connect a streaming service while signed in, we keep when and until when, with your account. Deleting your account deletes all of it.",
      ],
      links: [{ href: hrefs.dataCategories, text: "Data categories: what we hold, why and how long" }],
    },
    {
      id: "why",
      heading: "Why we use it",
      paragraphs: [
        "To run the Service (recognize songs, keep your library, sign you in), to keep it safe (rate limits, refusing requests other sites make in your name), to count how it is used so we can improve it, and to answer the requests you send us. We do not sell personal data and we show no advertising based on it.",
      ],
    },
    {
      id: "rights",
      heading: "Your rights",
      paragraphs: [
        `You can download everything we hold on your account and delete your account from the privacy pages. We answer data requests within ${privacyAnswerDays} days, and a deletion is completed within ${privacyAnswerDays} days; in practice both happen at once. You may also ask us to correct data, or object to a use of it, by writing to us.`,
      ],
      links: [
        { href: hrefs.download, text: "Download your data" },
        { href: hrefs.delete, text: "Delete your account" },
      ],
    },
    {
      id: "transfers",
      heading: "Transfers",
      paragraphs: [
        `Our servers run at the edge of a global network, so your data may be processed outside your country, under safeguards the law requires. The transfer notice explains this; it states that deletion is completed within ${transferNoticeDeletionDays} days. Both readings are given here: the ${privacyAnswerDays} days above and the ${transferNoticeDeletionDays} days of the transfer notice; we follow the shorter one.`,
      ],
      links: [{ href: hrefs.transferNotice, text: "Transfer notice" }],
    },
    {
      id: "children",
      heading: "Children",
      paragraphs: [
        `The Service is for people over ${minimumAge}. We do not knowingly keep an account of a younger child; if you believe we do, write to us and we delete it.`,
      ],
    },
    {
      id: "changes",
      heading: "Changes and contact",
      paragraphs: [
        "We say at the top of this page when this policy last changed. Questions about privacy reach us at the contact address of the site's /.well-known/security.txt file.",
      ],
      links: [{ href: hrefs.terms, text: "Terms of use" }],
    },
  ];
}
