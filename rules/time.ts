/** A day in milliseconds (a UTC day: the rules that count days count them in UTC or by the clock). */
export const dayMs = 86_400_000;
