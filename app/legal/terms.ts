import {
  arbitration,
  coolingOffDays,
  informalDisputeBusinessDays,
  type LegalSection,
  liabilityCap,
  minimumAge,
  trialMonths,
  usd,
  usdFrench,
  usMonthlyPriceUsd,
} from "#rules/legal.ts";

// Tunewave's terms of use, written for this project (spec 001 §2: the sections, in this order,
// and an anchor for the French terms). English is the text that applies; the French terms are
// the same text in French (docs/decisions/024-remaining-pages.md). Every figure comes from
// rules/legal.ts.

const words = ["zero", "one", "two", "three", "four", "five", "six", "seven"];

/** The anchor of the French terms (spec 001 §2 "an anchor for French terms"). */
export const frenchTermsId = "french-terms";

export function termsSections(links: { privacy: string }): readonly LegalSection[] {
  return [
    {
      id: "general",
      heading: "General",
      paragraphs: [
        "These terms are an agreement between you and Tunewave about your use of the Tunewave website, its pages under /amp, the Tunewave app and the services behind them (together, the Service). By using the Service you accept them; if you do not accept them, please do not use it.",
        `You must be over ${minimumAge} years old to use the Service. If you are under the age of majority where you live, a parent or guardian must read and accept these terms with you.`,
        "We may change these terms. We say what changed and when at the top of this page, and for a change that takes something away from you we tell signed-in users by e-mail before it applies. Using the Service after a change means you accept the new terms.",
      ],
    },
    {
      id: "usage-policy",
      heading: "Usage Policy",
      paragraphs: [
        "You may use the Service to identify music, read lyrics and song information, browse charts and keep a library of the songs you identified, for your own personal, non-commercial use.",
        "You may not: copy the catalogue or the charts in bulk, by scraping or otherwise, beyond the download files the chart pages offer; send the recognition service audio you are not allowed to record; try to get around a rate limit, a sign-in or any other protection; interfere with the Service or with other people's use of it; or use the Service to break the law.",
        "We may limit, suspend or end your use of the Service if you break these terms, and we may close an account that is used to do so.",
      ],
    },
    {
      id: "copyright",
      heading: "Copyright",
      paragraphs: [
        "The recordings, lyrics, artwork and names shown on the Service belong to their authors and are shown under their licences; each song page names the licence and where the recording comes from. The Service's own software, design and text belong to Tunewave.",
        "If you believe something on the Service infringes your copyright, write to us with the address of the page, the work you own and a statement that you are its owner or act for the owner. We remove what infringes and tell the person who provided it.",
      ],
    },
    {
      id: "user-generated-content",
      heading: "User Generated Content",
      paragraphs: [
        "What you send us (survey answers, an artist verification request, the recordings you ask us to identify) stays yours. You allow us to use it to run and improve the Service, as the privacy policy describes, and for nothing else.",
        "Recognition sends us a fingerprint of the sound, not the recording itself. Do not send us anything you have no right to share, anything unlawful, or another person's personal data without their permission.",
      ],
    },
    {
      id: "availability",
      heading: "Availability of Services",
      paragraphs: [
        "We work to keep the Service available, but we do not promise that it is always available, without errors, or that it recognizes every song. Features may differ by country, device and language, and we may change or stop a feature.",
        `Offers of a partner streaming subscription are available only to new subscribers in the countries and on the devices the offer names. A free trial lasts between ${words[trialMonths.shortest]} and ${words[trialMonths.longest]} months (${trialMonths.shortest} to ${trialMonths.longest} months, as the offer states); afterwards the subscription renews at the partner's price, in the United States ${usd(usMonthlyPriceUsd)} a month, unless you cancel before the trial ends.`,
      ],
    },
    {
      id: "legal-protection",
      heading: "Legal Protection and Limitations",
      paragraphs: [
        "The Service is provided as it is. To the extent the law allows, we are not liable for indirect or consequential loss, lost profits or lost data.",
        `Our total liability to you for any claim about the Service is limited to the greater of the fees you paid us in the ${words[liabilityCap.monthsOfFees]} months before the claim (${liabilityCap.monthsOfFees} months of fees) or ${usd(liabilityCap.usd)}. Nothing in these terms limits a liability the law does not allow to be limited.`,
        `Before starting a formal dispute, write to us and give us ${informalDisputeBusinessDays} business days to resolve it informally. If it is not resolved, and if you live in the United States, the dispute goes to individual arbitration; for claims under ${usd(arbitration.feeCoverageBelowUsd)} we pay the arbitration fees, and if the arbitrator awards you more than our last written offer we pay you a bonus of ${usd(arbitration.bonusUsd)} in addition to the award. Anywhere else, the courts of your country of residence decide.`,
        `Where the law gives you a right to cancel a paid subscription bought through the Service without a reason (a cooling-off period), that right is limited to ${coolingOffDays} days from the purchase, as far as that law allows, and ends once you have started to use the subscription with your agreement.`,
      ],
    },
    {
      id: "privacy-policy",
      heading: "Privacy Policy",
      paragraphs: [
        "How we handle your personal data is described in the privacy policy, which is part of these terms. You can download your data or delete your account at any time from the privacy pages.",
      ],
      links: [{ href: links.privacy, text: "Privacy policy" }],
    },
    {
      id: "additional-terms",
      heading: "Additional Terms",
      paragraphs: [
        "If a part of these terms cannot be enforced, the rest still applies. Not enforcing a term is not giving it up. You may not transfer these terms to someone else; we may transfer them to a company that takes over the Service, on the same conditions for you.",
        "Some countries' laws give you rights these terms cannot take away; nothing here limits them. French terms: the same terms in French follow below, for readers in France, Canada and other French-speaking countries.",
      ],
    },
  ];
}

/** The French terms (spec 001 §2), under `frenchTermsId`: the same sections and figures. */
export function frenchTermsSections(links: { privacy: string }): readonly LegalSection[] {
  return [
    {
      id: "fr-general",
      heading: "Généralités",
      paragraphs: [
        "Les présentes conditions sont un accord entre vous et Tunewave sur l'utilisation du site Tunewave, de ses pages /amp, de l'application Tunewave et des services associés (ensemble, le Service). En utilisant le Service, vous les acceptez.",
        `Vous devez avoir plus de ${minimumAge} ans pour utiliser le Service. Si vous êtes mineur dans votre pays, un parent ou tuteur doit lire et accepter ces conditions avec vous.`,
      ],
    },
    {
      id: "fr-usage-policy",
      heading: "Règles d'utilisation",
      paragraphs: [
        "Vous pouvez utiliser le Service pour identifier de la musique, lire des paroles, consulter les classements et garder une bibliothèque de vos morceaux, pour un usage personnel et non commercial. Il est interdit de copier le catalogue en masse, de contourner une limite ou une protection, ou de perturber le Service.",
      ],
    },
    {
      id: "fr-copyright",
      heading: "Droits d'auteur",
      paragraphs: [
        "Les enregistrements, paroles et images appartiennent à leurs auteurs et sont affichés selon leur licence. Si vous pensez qu'un contenu porte atteinte à vos droits, écrivez-nous avec l'adresse de la page et l'œuvre concernée.",
      ],
    },
    {
      id: "fr-user-generated-content",
      heading: "Contenu des utilisateurs",
      paragraphs: [
        "Ce que vous nous envoyez (réponses au sondage, demande de vérification d'artiste, empreintes sonores) reste à vous ; vous nous autorisez à l'utiliser pour faire fonctionner le Service, comme le décrit la politique de confidentialité.",
      ],
    },
    {
      id: "fr-availability",
      heading: "Disponibilité des services",
      paragraphs: [
        `Nous ne garantissons pas que le Service soit toujours disponible ni qu'il reconnaisse chaque morceau. Les essais gratuits d'un abonnement de streaming partenaire durent de ${trialMonths.shortest} à ${trialMonths.longest} mois ; ensuite l'abonnement est renouvelé au prix du partenaire, aux États-Unis ${usdFrench(usMonthlyPriceUsd)} par mois, sauf résiliation avant la fin de l'essai.`,
      ],
    },
    {
      id: "fr-legal-protection",
      heading: "Protection juridique et limitations",
      paragraphs: [
        `Notre responsabilité totale est limitée au plus élevé des montants suivants : les frais payés au cours des ${liabilityCap.monthsOfFees} mois précédant la réclamation, ou ${usdFrench(liabilityCap.usd)}.`,
        `Avant tout litige formel, écrivez-nous et laissez-nous ${informalDisputeBusinessDays} jours ouvrables pour le régler à l'amiable. Aux États-Unis, pour les demandes inférieures à ${usdFrench(arbitration.feeCoverageBelowUsd)}, nous payons les frais d'arbitrage, et une prime de ${usdFrench(arbitration.bonusUsd)} s'ajoute si la sentence dépasse notre dernière offre écrite. Le droit de rétractation, lorsque la loi le prévoit, est limité à ${coolingOffDays} jours dans la mesure permise par cette loi.`,
      ],
    },
    {
      id: "fr-privacy-policy",
      heading: "Politique de confidentialité",
      paragraphs: [
        "Le traitement de vos données personnelles est décrit dans la politique de confidentialité, qui fait partie des présentes conditions.",
      ],
      links: [{ href: links.privacy, text: "Politique de confidentialité" }],
    },
    {
      id: "fr-additional-terms",
      heading: "Conditions supplémentaires",
      paragraphs: [
        "Si une clause ne peut pas être appliquée, les autres restent valables. Les droits que la loi de votre pays vous accorde et que ces conditions ne peuvent pas supprimer sont préservés.",
      ],
    },
  ];
}
