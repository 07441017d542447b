import { useRef, useState } from "react";
import { useTranslation } from "#app/shell/strings.ts";

/**
 * Spec 001 §2 "a Copy / Copied control for a code": the code in a read-only field and a button.
 * The Clipboard API where the browser allows it; otherwise the field's text is selected and the
 * browser's own copy command tried, and if that fails too the selection stays for the person to
 * copy. The outcome is announced to screen readers through a live region.
 */
export function CopyCode({ code, label, onCopied }: { code: string; label: string; onCopied?: () => void }) {
  const { t } = useTranslation("offers");
  const field = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<"idle" | "copied" | "selected">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setOutcome("copied");
      onCopied?.();
      return;
    } catch {
      // No Clipboard API, or permission refused: select the text instead.
    }
    field.current?.focus();
    field.current?.select();
    const copied = (() => {
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    })();
    setOutcome(copied ? "copied" : "selected");
    if (copied) onCopied?.();
  }

  return (
    <div className="copy-code">
      <label htmlFor="offer-code" className="copy-code__label">
        {label}
      </label>
      <div className="copy-code__row">
        <input
          ref={field}
          id="offer-code"
          className="copy-code__field"
          readOnly
          value={code}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button" onClick={copy}>
          {outcome === "copied" ? t("copied") : t("copy")}
        </button>
      </div>
      {/* The button already reads "Copied": the announcement is for screen readers only. */}
      <p
        className={outcome === "selected" ? "copy-code__status" : "visually-hidden"}
        role="status"
        aria-live="polite"
      >
        {outcome === "copied" ? t("copied") : outcome === "selected" ? t("copySelected") : ""}
      </p>
    </div>
  );
}
