/** Placeholder: filled by the patients work. */
export {};
