/** Spec 002 "Share options: twitter and email": plain links, so they work without JavaScript. */
export function ShareLinks({
  url,
  text,
  subject,
  labels,
  className,
}: {
  url: string;
  text: string;
  subject: string;
  labels: { heading: string; twitter: string; email: string };
  /** Classes added to the section (for example `card`). */
  className?: string;
}) {
  const twitter = `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
  const email = `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(`${text}\n${url}`)}`;
  return (
    <section className={className ? `share-links ${className}` : "share-links"}>
      <h2 className="share-links__heading">{labels.heading}</h2>
      <ul className="share-links__list">
        <li>
          <a className="button button--quiet" href={twitter} target="_blank" rel="noopener noreferrer">
            {labels.twitter}
          </a>
        </li>
        <li>
          <a className="button button--quiet" href={email}>
            {labels.email}
          </a>
        </li>
      </ul>
    </section>
  );
}
