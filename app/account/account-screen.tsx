import type { ReactNode } from "react";

// Apart from the header's account area (app/account/account.tsx), so that area loads with the
// root's shell instead of in a chunk of its own shared with the sign-in routes.

/** A sign-in screen: one card with its heading first (the page's h1) and what follows. */
export function AccountScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="account-screen card" aria-labelledby="account-title">
      <h1 id="account-title">{title}</h1>
      {children}
    </section>
  );
}
