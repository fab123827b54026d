/** Limits of spec 2 §9.1 used by more than one layer. */
export const INTERNAL_NOTES_MAX = 2500;
export const MESSAGE_MAX = 800;
export const AUTOSAVE_DELAY_MS = 750;
