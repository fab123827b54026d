/**
 * Error names by HTTP status (spec 2 §8.1): the API names every error body with them, and the UI names a failure
 * whose body carries no name (a proxy's 502, a refused connection) the same way.
 */
export const HTTP_ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest', 401: 'NotAuthenticated', 402: 'PaymentError', 403: 'Forbidden', 404: 'NotFound',
  405: 'MethodNotAllowed', 406: 'NotAcceptable', 408: 'Timeout', 409: 'Conflict', 410: 'Gone', 411: 'LengthRequired',
  413: 'PayloadTooLarge', 422: 'Unprocessable', 429: 'TooManyRequests', 500: 'GeneralError', 501: 'NotImplemented',
  502: 'BadGateway', 503: 'Unavailable',
};

/** The name of an error with this status; statuses outside the table are a GeneralError. */
export const httpErrorName = (status: number): string => HTTP_ERROR_NAMES[status] ?? 'GeneralError';
