const entities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text for HTML the site writes itself, outside React (which escapes what it renders): the sign-in
 * mail, the video pages, the Worker's refusal pages. Safe in element content and in a quoted
 * attribute value.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}
