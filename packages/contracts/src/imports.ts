/** Placeholder: filled by the imports work. */
export {};
