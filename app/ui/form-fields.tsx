import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "#app/shell/strings.ts";
import type { FieldError } from "#rules/forms.ts";

// The fields of the site's forms (survey, verification): a visible label, the field's error beside
// it (`aria-describedby`, `aria-invalid`), and the values sent back after a refusal, so that a form
// sent without script comes back filled in with what is wrong said in the visitor's language.

export type FieldProps = {
  form: string;
  name: string;
  label: string;
  error: FieldError | undefined;
};

function ErrorText({ id, error }: { id: string; error: FieldError | undefined }) {
  const { t } = useTranslation("forms");
  return error ? (
    <p id={id} className="site-form__error">
      {t(`errors.${error}`)}
    </p>
  ) : null;
}

export function TextField({
  form,
  name,
  label,
  error,
  value,
  type = "text",
  multiline = false,
  maxLength,
  required = false,
  autoComplete,
  hint,
}: FieldProps & {
  value: string;
  type?: "text" | "email" | "url";
  multiline?: boolean;
  maxLength: number;
  required?: boolean;
  autoComplete?: string;
  hint?: string;
}) {
  const id = `${form}-${name}`;
  const described =
    [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    maxLength,
    required,
    defaultValue: value,
    autoComplete,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
  };
  return (
    <div className="site-form__field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="site-form__hint">
          {hint}
        </p>
      ) : null}
      {multiline ? <textarea rows={4} {...common} /> : <input type={type} {...common} />}
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

/** One choice of several: radio buttons in a fieldset whose legend is the question. */
export function ChoiceField({
  form,
  name,
  label,
  error,
  value,
  options,
}: FieldProps & { value: string; options: readonly { value: string; label: string }[] }) {
  const id = `${form}-${name}`;
  return (
    <fieldset
      className="site-form__choices"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{label}</legend>
      {options.map((option) => (
        <label key={option.value} className="site-form__choice">
          <input
            type="radio"
            name={name}
            value={option.value}
            defaultChecked={option.value === value}
            required
          />
          <span>{option.label}</span>
        </label>
      ))}
      <ErrorText id={`${id}-error`} error={error} />
    </fieldset>
  );
}

/**
 * The outcome of sending a form or taking a step (thanks, sent, deleted, a refusal): announced as
 * it appears (`role` status or alert) and focused, so that keyboard and screen-reader users land
 * on it after the form.
 */
export function FormMessage({
  kind,
  children,
  id,
}: {
  kind: "status" | "alert";
  children: ReactNode;
  id?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} id={id} className={`form-message form-message--${kind}`} role={kind} tabIndex={-1}>
      {children}
    </div>
  );
}
