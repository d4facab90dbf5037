/** The API's version, as the OpenAPI document and the changelog state it. Bump with each release. */
export const API_VERSION = '0.2.0';
