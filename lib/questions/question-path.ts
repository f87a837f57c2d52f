/**
 * Where a question's page is: `/answers/q/<id>` under the answer page's origin (ANSWER_PUBLIC_URL).
 * Named once for everything that links to it: the page's own routes and forms, the answer API's
 * JSON, the webhooks, and the URL-mode elicitations a caller's client is sent. Pure: the workflow
 * bundle imports it.
 */
export const questionPath = (id: string): string => `/answers/q/${encodeURIComponent(id)}`;

/** A question's page, absolute under `origin`. */
export const questionPageUrl = (origin: string, id: string): string => `${origin}${questionPath(id)}`;
