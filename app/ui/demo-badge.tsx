/**
 * The label on numbers and content the demo catalogue made up (lyrics, radio spins, concert
 * listings, seeded counts), so no one takes them for what visitors did. Styled in site.css: every
 * page that shows one has it.
 */
export function DemoBadge({ children }: { children: string }) {
  return <span className="demo-badge">{children}</span>;
}
