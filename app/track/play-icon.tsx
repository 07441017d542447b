/** The play (or pause) symbol of play controls. */
export function PlayIcon({ playing = false }: { playing?: boolean }) {
  return (
    <svg
      className="play-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
    >
      {playing ? (
        <path d="M7 5h4v14H7zM13 5h4v14h-4z" fill="currentColor" />
      ) : (
        <path d="M8 5v14l11-7z" fill="currentColor" />
      )}
    </svg>
  );
}
