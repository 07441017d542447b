import type { FeatureConfig } from "#rules/feature-flags.ts";

/**
 * The feature-flag config the origin serves at /services/config/features{app}.json (spec 000 §3,
 * §6, §7): nodes with `data` and `control`, evaluated by rules/feature-flags.ts. `{app}` is empty for
 * the website.
 */
export const featureConfigs: Readonly<Record<string, FeatureConfig>> = {
  "": {
    featureflags: {
      // Spec 000 §2: the search box with Recent, Songs and Artists groups.
      search: { data: { enabled: true } },
      // Spec 001 §4 synced lyrics, on everywhere the lyrics section is shown.
      syncedlyrics: { data: { enabled: true } },
      // Spec 001 §2: "A numeric id or an adam id with alias is accepted depending on a feature switch".
      artistadamidroute: { data: { enabled: true }, control: { rollout: 100 } },
      // Spec 002 §1 and §4: web recognition through the microphone, with the same checkpoints "on
      // mobile and desktop": phones and tablets too, which is where people hear a song. Inside the
      // native app's webview the panel hands recognition to the app (recognition-panel.tsx
      // `inApp`), whatever this flag says; it is off only where a config turns it off.
      webrec: { data: { enabled: true } },
      // Spec 001 §1: "The My Library area is announced as soon to be removed from the website".
      // Announced to the people who have a library: those signed in.
      mylibrarysunset: { data: { enabled: true }, control: { loggedin: true } },
      // Spec 001 §3: the chart page's genre tab (and the genre picker behind it).
      chartsgenretabs: { data: { enabled: true } },
      // Spec 000 §2 netlog=1 debug logging, internal environments only.
      netlog: { data: { enabled: true }, control: { environments: ["cisd", "dev"] } },
    },
  },
};
