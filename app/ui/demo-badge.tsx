/**
 * The label on numbers and content the demo catalogue made up (lyrics, radio spins, concert
 * listings), so no one takes them for what visitors did .
 */
export function DemoBadge({ children }: { children: string }) {
  return <span className="track-badge">{children}</span>;
}
