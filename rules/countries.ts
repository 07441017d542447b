import { type LanguageKey, languageOf } from "./languages";

/**
 * Spec 000 §3 "A country table of ISO codes, including historic ones, WORLD and GLOBAL, maps to
 * names", and the country choice of spec 000 §4.
 */

export type Country = {
  /** ISO 3166-1 alpha-2 code (or WORLD, GLOBAL), upper case. */
  code: string;
  /** English name. */
  name: string;
  /** Spec 001 §3 "Country: … urlName": the lower-case, hyphenated English name used in chart URLs. */
  urlName: string;
  /** A code ISO 3166-1 no longer assigns to this country. */
  historic: boolean;
};

/** ISO 3166-1 alpha-2, officially assigned codes, plus XK (Kosovo), which IP geolocation returns. */
const currentCountries: readonly (readonly [code: string, name: string])[] = [
  ["AD", "Andorra"],
  ["AE", "United Arab Emirates"],
  ["AF", "Afghanistan"],
  ["AG", "Antigua and Barbuda"],
  ["AI", "Anguilla"],
  ["AL", "Albania"],
  ["AM", "Armenia"],
  ["AO", "Angola"],
  ["AQ", "Antarctica"],
  ["AR", "Argentina"],
  ["AS", "American Samoa"],
  ["AT", "Austria"],
  ["AU", "Australia"],
  ["AW", "Aruba"],
  ["AX", "Åland Islands"],
  ["AZ", "Azerbaijan"],
  ["BA", "Bosnia and Herzegovina"],
  ["BB", "Barbados"],
  ["BD", "Bangladesh"],
  ["BE", "Belgium"],
  ["BF", "Burkina Faso"],
  ["BG", "Bulgaria"],
  ["BH", "Bahrain"],
  ["BI", "Burundi"],
  ["BJ", "Benin"],
  ["BL", "Saint Barthélemy"],
  ["BM", "Bermuda"],
  ["BN", "Brunei"],
  ["BO", "Bolivia"],
  ["BQ", "Caribbean Netherlands"],
  ["BR", "Brazil"],
  ["BS", "Bahamas"],
  ["BT", "Bhutan"],
  ["BV", "Bouvet Island"],
  ["BW", "Botswana"],
  ["BY", "Belarus"],
  ["BZ", "Belize"],
  ["CA", "Canada"],
  ["CC", "Cocos (Keeling) Islands"],
  ["CD", "Democratic Republic of the Congo"],
  ["CF", "Central African Republic"],
  ["CG", "Republic of the Congo"],
  ["CH", "Switzerland"],
  ["CI", "Côte d'Ivoire"],
  ["CK", "Cook Islands"],
  ["CL", "Chile"],
  ["CM", "Cameroon"],
  ["CN", "China"],
  ["CO", "Colombia"],
  ["CR", "Costa Rica"],
  ["CU", "Cuba"],
  ["CV", "Cape Verde"],
  ["CW", "Curaçao"],
  ["CX", "Christmas Island"],
  ["CY", "Cyprus"],
  ["CZ", "Czechia"],
  ["DE", "Germany"],
  ["DJ", "Djibouti"],
  ["DK", "Denmark"],
  ["DM", "Dominica"],
  ["DO", "Dominican Republic"],
  ["DZ", "Algeria"],
  ["EC", "Ecuador"],
  ["EE", "Estonia"],
  ["EG", "Egypt"],
  ["EH", "Western Sahara"],
  ["ER", "Eritrea"],
  ["ES", "Spain"],
  ["ET", "Ethiopia"],
  ["FI", "Finland"],
  ["FJ", "Fiji"],
  ["FK", "Falkland Islands"],
  ["FM", "Micronesia"],
  ["FO", "Faroe Islands"],
  ["FR", "France"],
  ["GA", "Gabon"],
  ["GB", "United Kingdom"],
  ["GD", "Grenada"],
  ["GE", "Georgia"],
  ["GF", "French Guiana"],
  ["GG", "Guernsey"],
  ["GH", "Ghana"],
  ["GI", "Gibraltar"],
  ["GL", "Greenland"],
  ["GM", "Gambia"],
  ["GN", "Guinea"],
  ["GP", "Guadeloupe"],
  ["GQ", "Equatorial Guinea"],
  ["GR", "Greece"],
  ["GS", "South Georgia and the South Sandwich Islands"],
  ["GT", "Guatemala"],
  ["GU", "Guam"],
  ["GW", "Guinea-Bissau"],
  ["GY", "Guyana"],
  ["HK", "Hong Kong"],
  ["HM", "Heard Island and McDonald Islands"],
  ["HN", "Honduras"],
  ["HR", "Croatia"],
  ["HT", "Haiti"],
  ["HU", "Hungary"],
  ["ID", "Indonesia"],
  ["IE", "Ireland"],
  ["IL", "Israel"],
  ["IM", "Isle of Man"],
  ["IN", "India"],
  ["IO", "British Indian Ocean Territory"],
  ["IQ", "Iraq"],
  ["IR", "Iran"],
  ["IS", "Iceland"],
  ["IT", "Italy"],
  ["JE", "Jersey"],
  ["JM", "Jamaica"],
  ["JO", "Jordan"],
  ["JP", "Japan"],
  ["KE", "Kenya"],
  ["KG", "Kyrgyzstan"],
  ["KH", "Cambodia"],
  ["KI", "Kiribati"],
  ["KM", "Comoros"],
  ["KN", "Saint Kitts and Nevis"],
  ["KP", "North Korea"],
  ["KR", "South Korea"],
  ["KW", "Kuwait"],
  ["KY", "Cayman Islands"],
  ["KZ", "Kazakhstan"],
  ["LA", "Laos"],
  ["LB", "Lebanon"],
  ["LC", "Saint Lucia"],
  ["LI", "Liechtenstein"],
  ["LK", "Sri Lanka"],
  ["LR", "Liberia"],
  ["LS", "Lesotho"],
  ["LT", "Lithuania"],
  ["LU", "Luxembourg"],
  ["LV", "Latvia"],
  ["LY", "Libya"],
  ["MA", "Morocco"],
  ["MC", "Monaco"],
  ["MD", "Moldova"],
  ["ME", "Montenegro"],
  ["MF", "Saint Martin"],
  ["MG", "Madagascar"],
  ["MH", "Marshall Islands"],
  ["MK", "North Macedonia"],
  ["ML", "Mali"],
  ["MM", "Myanmar"],
  ["MN", "Mongolia"],
  ["MO", "Macao"],
  ["MP", "Northern Mariana Islands"],
  ["MQ", "Martinique"],
  ["MR", "Mauritania"],
  ["MS", "Montserrat"],
  ["MT", "Malta"],
  ["MU", "Mauritius"],
  ["MV", "Maldives"],
  ["MW", "Malawi"],
  ["MX", "Mexico"],
  ["MY", "Malaysia"],
  ["MZ", "Mozambique"],
  ["NA", "Namibia"],
  ["NC", "New Caledonia"],
  ["NE", "Niger"],
  ["NF", "Norfolk Island"],
  ["NG", "Nigeria"],
  ["NI", "Nicaragua"],
  ["NL", "Netherlands"],
  ["NO", "Norway"],
  ["NP", "Nepal"],
  ["NR", "Nauru"],
  ["NU", "Niue"],
  ["NZ", "New Zealand"],
  ["OM", "Oman"],
  ["PA", "Panama"],
  ["PE", "Peru"],
  ["PF", "French Polynesia"],
  ["PG", "Papua New Guinea"],
  ["PH", "Philippines"],
  ["PK", "Pakistan"],
  ["PL", "Poland"],
  ["PM", "Saint Pierre and Miquelon"],
  ["PN", "Pitcairn Islands"],
  ["PR", "Puerto Rico"],
  ["PS", "Palestine"],
  ["PT", "Portugal"],
  ["PW", "Palau"],
  ["PY", "Paraguay"],
  ["QA", "Qatar"],
  ["RE", "Réunion"],
  ["RO", "Romania"],
  ["RS", "Serbia"],
  ["RU", "Russia"],
  ["RW", "Rwanda"],
  ["SA", "Saudi Arabia"],
  ["SB", "Solomon Islands"],
  ["SC", "Seychelles"],
  ["SD", "Sudan"],
  ["SE", "Sweden"],
  ["SG", "Singapore"],
  ["SH", "Saint Helena"],
  ["SI", "Slovenia"],
  ["SJ", "Svalbard and Jan Mayen"],
  ["SK", "Slovakia"],
  ["SL", "Sierra Leone"],
  ["SM", "San Marino"],
  ["SN", "Senegal"],
  ["SO", "Somalia"],
  ["SR", "Suriname"],
  ["SS", "South Sudan"],
  ["ST", "São Tomé and Príncipe"],
  ["SV", "El Salvador"],
  ["SX", "Sint Maarten"],
  ["SY", "Syria"],
  ["SZ", "Eswatini"],
  ["TC", "Turks and Caicos Islands"],
  ["TD", "Chad"],
  ["TF", "French Southern Territories"],
  ["TG", "Togo"],
  ["TH", "Thailand"],
  ["TJ", "Tajikistan"],
  ["TK", "Tokelau"],
  ["TL", "Timor-Leste"],
  ["TM", "Turkmenistan"],
  ["TN", "Tunisia"],
  ["TO", "Tonga"],
  ["TR", "Turkey"],
  ["TT", "Trinidad and Tobago"],
  ["TV", "Tuvalu"],
  ["TW", "Taiwan"],
  ["TZ", "Tanzania"],
  ["UA", "Ukraine"],
  ["UG", "Uganda"],
  ["UM", "United States Minor Outlying Islands"],
  ["US", "United States"],
  ["UY", "Uruguay"],
  ["UZ", "Uzbekistan"],
  ["VA", "Vatican City"],
  ["VC", "Saint Vincent and the Grenadines"],
  ["VE", "Venezuela"],
  ["VG", "British Virgin Islands"],
  ["VI", "United States Virgin Islands"],
  ["VN", "Vietnam"],
  ["VU", "Vanuatu"],
  ["WF", "Wallis and Futuna"],
  ["WS", "Samoa"],
  ["YE", "Yemen"],
  ["YT", "Mayotte"],
  ["ZA", "South Africa"],
  ["ZM", "Zambia"],
  ["ZW", "Zimbabwe"],
  ["XK", "Kosovo"],
];

/** Codes ISO 3166-1 has withdrawn (ISO 3166-3), still found in old links and old app configs. */
const historicCountries: readonly (readonly [code: string, name: string])[] = [
  ["AN", "Netherlands Antilles"],
  ["BU", "Burma"],
  ["CS", "Serbia and Montenegro"],
  ["CT", "Canton and Enderbury Islands"],
  ["DD", "East Germany"],
  ["DY", "Dahomey"],
  ["FQ", "French Southern and Antarctic Territories"],
  ["FX", "Metropolitan France"],
  ["HV", "Upper Volta"],
  ["JT", "Johnston Island"],
  ["MI", "Midway Islands"],
  ["NH", "New Hebrides"],
  ["NQ", "Dronning Maud Land"],
  ["NT", "Neutral Zone"],
  ["PC", "Pacific Islands Trust Territory"],
  ["PU", "United States Miscellaneous Pacific Islands"],
  ["PZ", "Panama Canal Zone"],
  ["RH", "Southern Rhodesia"],
  ["SU", "Soviet Union"],
  ["TP", "East Timor"],
  ["VD", "North Vietnam"],
  ["WK", "Wake Island"],
  ["YD", "South Yemen"],
  ["YU", "Yugoslavia"],
  ["ZR", "Zaire"],
];

/** Spec 000 §3: the two pseudo-countries of world-wide charts and content. */
const worldCountries: readonly (readonly [code: string, name: string])[] = [
  ["WORLD", "World"],
  ["GLOBAL", "Global"],
];

/** Spec 000 §9 "Defaults: country GB". */
export const defaultCountryCode = "GB";

/** "Côte d'Ivoire" → "cote-d-ivoire", "Trinidad and Tobago" → "trinidad-and-tobago". */
function urlNameOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function row(historic: boolean) {
  return ([code, name]: readonly [string, string]): Country => ({
    code,
    name,
    urlName: urlNameOf(name),
    historic,
  });
}

export const countries: readonly Country[] = [
  ...currentCountries.map(row(false)),
  ...historicCountries.map(row(true)),
  ...worldCountries.map(row(false)),
];

const byCode = new Map(countries.map((country) => [country.code, country]));

/** The table entry of a code in any case, or undefined for a code outside the table. */
export function findCountry(code: string | null | undefined): Country | undefined {
  if (!code) return undefined;
  return byCode.get(code.trim().toUpperCase());
}

const displayNames = new Map<string, Intl.DisplayNames | undefined>();

function regionNames(locale: string): Intl.DisplayNames | undefined {
  if (!displayNames.has(locale)) {
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames([locale], { type: "region", fallback: "none" });
    } catch {
      names = undefined;
    }
    displayNames.set(locale, names);
  }
  return displayNames.get(locale);
}

/**
 * WORLD and GLOBAL in each interface language. Intl knows the world as region 001, but workerd's
 * ICU data has no names for it, so the names are here.
 */
const worldNames: Readonly<Record<LanguageKey, string>> = {
  cs: "Svět",
  de: "Welt",
  el: "Κόσμος",
  en: "World",
  gb: "World",
  es: "Mundo",
  "es-es": "Mundo",
  "es-mx": "Mundo",
  fr: "Monde",
  hi: "विश्व",
  id: "Dunia",
  it: "Mondo",
  ja: "世界",
  ko: "세계",
  nl: "Wereld",
  pl: "Świat",
  pt: "Mundo",
  "pt-br": "Mundo",
  ru: "Мир",
  tr: "Dünya",
  "zh-cn": "世界",
  "zh-tw": "世界",
};

/**
 * The country's name in an interface language. English uses the table's names; other languages
 * ask Intl.DisplayNames. Historic codes keep their English name: Intl maps them to today's
 * successor (SU → Russia, DD → Germany), which would name the wrong country. Unknown codes give
 * the code itself.
 */
export function countryName(code: string, langKey: LanguageKey): string {
  const country = findCountry(code);
  if (!country) return code;
  const { locale } = languageOf(langKey);
  if (country.historic || locale.startsWith("en")) return country.name;
  if (country.code === "WORLD" || country.code === "GLOBAL") return worldNames[langKey];
  return regionNames(locale)?.of(country.code) ?? country.name;
}

export type CountrySource = "co" | "appconfig" | "ip" | "default";

export type CountryChoice = { code: string; source: CountrySource };

/**
 * Spec 000 §4 "Country choice order: co parameter, native app web config, IP geolocation, else
 * GB", and §5: only codes of the table are accepted; any other value is refused and the next
 * source is asked.
 */
export function chooseCountry(sources: {
  coParam?: string | null | undefined;
  appConfigCountry?: string | null | undefined;
  cfCountry?: string | null | undefined;
}): CountryChoice {
  const fromParam = findCountry(sources.coParam);
  if (fromParam) return { code: fromParam.code, source: "co" };
  const fromApp = findCountry(sources.appConfigCountry);
  if (fromApp) return { code: fromApp.code, source: "appconfig" };
  const fromIp = findCountry(sources.cfCountry);
  if (fromIp) return { code: fromIp.code, source: "ip" };
  return { code: defaultCountryCode, source: "default" };
}
