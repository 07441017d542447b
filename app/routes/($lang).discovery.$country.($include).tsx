// Spec 001 §2 chart page: the same route module as top-200 (the type comes from the path).
export {
  ampView,
  default,
  headers,
  links,
  loader,
  meta,
} from "#app/routes/($lang).top-200.$country.($include)/route.tsx";
