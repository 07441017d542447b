import { libraryDownloadLoader } from "~/data/library.server";

// The whole library as a file to download (see exportLibrary).
export const loader = libraryDownloadLoader("json");
