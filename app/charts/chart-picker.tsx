import { Form } from "@remix-run/react";
import { useId } from "react";
import type { ChartOption } from "./chart-page.server";

export type ChartPickerProps = {
  action: string;
  /** The chart type to open; absent on the landing, where the picker only chooses the country. */
  type?: string;
  countries: ChartOption[];
  country: string;
  cities?: ChartOption[];
  city?: string | undefined;
  genres?: ChartOption[];
  genre?: string | undefined;
  labels: { heading: string; country: string; city: string; genre: string; submit: string };
};

/**
 * The country, city and genre pickers: a GET form with real selects and a submit button, so it
 * works without JavaScript and with the keyboard (no navigation on change: WCAG 3.2.2).
 */
export function ChartPicker({
  action,
  type,
  countries,
  country,
  cities = [],
  city,
  genres = [],
  genre,
  labels,
}: ChartPickerProps) {
  const id = useId();
  return (
    <Form method="get" action={action} className="chart-picker card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="chart-picker__heading">
        {labels.heading}
      </h2>
      {type ? <input type="hidden" name="type" value={type} /> : null}
      <div className="chart-picker__fields">
        <PickerSelect
          id={`${id}-country`}
          name="country"
          label={labels.country}
          options={countries}
          value={country}
        />
        {cities.length > 0 ? (
          <PickerSelect id={`${id}-city`} name="city" label={labels.city} options={cities} value={city} />
        ) : null}
        {genres.length > 0 ? (
          <PickerSelect id={`${id}-genre`} name="genre" label={labels.genre} options={genres} value={genre} />
        ) : null}
        <button type="submit" className="button chart-picker__submit">
          {labels.submit}
        </button>
      </div>
    </Form>
  );
}

function PickerSelect({
  id,
  name,
  label,
  options,
  value,
}: {
  id: string;
  name: string;
  label: string;
  options: ChartOption[];
  value: string | undefined;
}) {
  return (
    <div className="chart-picker__field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} className="chart-picker__select">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
