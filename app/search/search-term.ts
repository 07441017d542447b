/**
 * Longest search term, after trimming; the origin refuses longer ones. Ours: the spec names none.
 * Its own module so the header's plain search form (every page) loads no search-group code.
 */
export const searchTermMaxLength = 100;
