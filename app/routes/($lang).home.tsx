// Spec 000 §2: "The root path is treated as /home": /home is the home page (canonical: /).
export { ampView, default, loader, meta } from "#app/routes/($lang)._index/route.tsx";
