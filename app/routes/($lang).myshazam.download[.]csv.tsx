import { libraryDownloadLoader } from "#app/library/library.server.ts";

// The whole library as a file to download (see exportLibrary).
export const loader = libraryDownloadLoader("csv");
