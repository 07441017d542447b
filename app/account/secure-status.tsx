import { useEffect } from "react";

/**
 * A secure page's sign-in check in the browser (spec 000 §2 "/secure/...", 002 §7): when the page
 * is shown, from the network or back from the browser's page cache, it asks /secure/status, and a
 * session that has ended since the server drew the page sends the person to sign in and back here.
 * The server made the same check before drawing it (`loadSecurePage`); this one covers the time since.
 */
export function useSecureStatusCheck() {
  useEffect(() => {
    let stopped = false;
    const check = async () => {
      const { checkSecureStatus } = await import("./browser/secure-status.ts");
      const answer = await checkSecureStatus(window.location);
      if (!stopped && answer.status === "signin") window.location.assign(answer.url);
    };
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) void check();
    };
    void check();
    window.addEventListener("pageshow", onPageShow);
    return () => {
      stopped = true;
      window.removeEventListener("pageshow", onPageShow);
    };
  }, []);
}
