/** The access token lives in localStorage under the Feathers key the original client used (spec 2 §7.2). */
export const TOKEN_KEY = 'feathers-jwt';

export const readToken = (): string | null => window.localStorage.getItem(TOKEN_KEY);
export const storeToken = (token: string): void => window.localStorage.setItem(TOKEN_KEY, token);
export const removeToken = (): void => window.localStorage.removeItem(TOKEN_KEY);
