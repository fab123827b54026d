/** Limits of spec 2 §9.1 that domain/ does not carry yet (candidates to move there). */
export const INTERNAL_NOTES_MAX = 2500;
