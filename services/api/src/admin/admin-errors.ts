/** What the admin API refuses with 400: a query parameter or field it cannot take. */
/** A request the admin API refuses (400), naming the query parameter or field at fault. */
export class InvalidParameter extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}
