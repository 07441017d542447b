import type { FeatureConfig } from "../../rules/feature-flags";

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
      // Spec 002 §1: web recognition through the microphone, not inside the native app's webview.
      webrec: { data: { enabled: true, checkpoints: [3, 6, 9, 12] }, control: { platforms: ["web"] } },
      // Spec 001 §1: "The My Library area is announced as soon to be removed from the website".
      mylibrarysunset: { data: { enabled: true }, control: { loggedin: true } },
      // Spec 001 §4 offers: only on matching store-front countries, smartphones only.
      streamingoffer: {
        data: { months: { ios: 5, android: 3 } },
        control: { countries: ["US", "GB", "DE", "FR", "JP", "AU", "CA"], platforms: ["ios", "android"] },
      },
      // A staged change: half of the visitors on the beta and development environments.
      chartsgenretabs: { data: { enabled: true }, control: { environments: ["betasd", "dev"], rollout: 50 } },
      // Spec 000 §2 netlog=1 debug logging, internal environments only.
      netlog: { data: { enabled: true }, control: { environments: ["cisd", "dev"] } },
    },
  },
};
