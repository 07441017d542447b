import { usePrimitives } from "./primitives";

/** A page's opening band: its heading, a sentence, and its entry points (the first is the main one). */
export function Hero({
  id,
  title,
  text,
  actions,
}: {
  id: string;
  title: string;
  text: string;
  actions: readonly { href: string; label: string }[];
}) {
  const { Link } = usePrimitives();
  return (
    <section className="hero" aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p>{text}</p>
      <p className="hero__actions">
        {actions.map((action, index) => (
          <Link
            key={action.href}
            className={index === 0 ? "button button--light" : "button button--outline"}
            href={action.href}
          >
            {action.label}
          </Link>
        ))}
      </p>
    </section>
  );
}
