import type { ReactNode } from "react";

/**
 * A section of a page labelled by its heading. Spec 000 §4 counts each as a frame with a
 * first-show impression, named after the heading's id (watchSections in app/shell/browser/runtime.ts).
 */
export function LabelledSection({
  id,
  heading,
  className = "section",
  children,
}: {
  /** The heading's id, which labels the section. */
  id: string;
  heading: ReactNode;
  /** Default "section". */
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {children}
    </section>
  );
}
