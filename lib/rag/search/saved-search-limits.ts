/** The longest saved-search name. No server-only import: the forms that name a search read it too. */
export const maxSavedSearchNameLength = 120;
