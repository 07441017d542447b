// The catalogue seed, imported as text by the worker tests' setup (Vite's ?raw).
declare module "*.sql?raw" {
  const text: string;
  export default text;
}
