/** Placeholder: filled by the devices work. */
export {};
