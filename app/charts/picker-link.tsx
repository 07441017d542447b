import { usePrimitives } from "#app/ui/primitives.tsx";

/** A chart picker where forms are not carried (AMP pages): the link to the interactive page's picker. */
export function PickerLink({ href, label }: { href: string; label: string }) {
  const { Link } = usePrimitives();
  return (
    <p className="chart-picker card">
      <Link href={href}>{label}</Link>
    </p>
  );
}
