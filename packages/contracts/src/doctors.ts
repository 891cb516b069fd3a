/** Placeholder: filled by the doctors work. */
export {};
