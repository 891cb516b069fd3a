import pg from 'pg';

/** A statement is prepared on a connection once it was sent this many times there. */
export const PREPARE_AFTER_USES = 3;
/** At most this many statements are prepared per connection (each holds a plan in its backend). */
export const MAX_PREPARED_PER_CONNECTION = 100;
/** Texts counted per connection before the count starts over (bounds memory for one-off texts). */
const MAX_COUNTED_TEXTS = 2_000;

interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  values?: unknown;
  submit?: unknown;
}

/** The statements that open a transaction (drizzle's `begin`, `begin read only`, …). */
const BEGIN = /^\s*begin\b[\w\s]*$/i;
/** The statements that end one. */
const END = /^\s*(?:commit|rollback)\s*$/i;

/** What pg answers for a statement without rows; given for a BEGIN held back, and for its end when nothing was sent. */
const resultWithoutRows = (command: string) => ({ command, rowCount: null, oid: 0, rows: [], fields: [] });

/**
 * A pg client that turns the parameterized statements a connection sends again and again into
 * named prepared statements, as pgjdbc does with its prepare threshold and postgres.js by default.
 *
 * An unnamed statement is parsed, rewritten with the tables' row level security policies and
 * planned on every execution; for the short statements of a request that is most of their cost in
 * the database (a policy-laden statement's planning takes longer than its execution). A named one
 * is parsed once per connection, and PostgreSQL's plan cache keeps a generic plan once it costs no
 * more than the custom ones (plan_cache_mode auto). Policies read the transaction's settings
 * (app.tenant_id, app.center_ids, …) when they run, not when they are planned, so one plan serves
 * every tenant and caller; a change of a table (a migration, a new partition) invalidates the
 * plans that use it and PostgreSQL plans them again.
 *
 * Only statements with parameters are named (the text of one without is the same each time anyway,
 * and several statements in one text cannot be prepared), only after PREPARE_AFTER_USES uses on the
 * connection, and at most MAX_PREPARED_PER_CONNECTION of them: texts built for one call (a bulk
 * insert of n rows) stay unnamed. A name is never reused for another text on a connection.
 *
 * It also saves a round trip per transaction: a BEGIN is held back and sent in one text with the
 * transaction's first statement when that one has no parameters (the transaction settings of
 * Database.withTenant: `BEGIN; SELECT set_config(…)` is one simple query, executed in order);
 * before a statement with parameters it is sent first, as it would have been. A transaction that
 * ends before any statement sends nothing at all.
 */
export class PreparingClient extends pg.Client {
  readonly #names = new Map<string, string>();
  readonly #uses = new Map<string, number>();
  /** The BEGIN text held back, to go out with the transaction's first statement. */
  #heldBegin: string | undefined;

  /** The name to send `text` under on this connection, or undefined to send it unnamed. */
  statementNameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    if (this.#names.size >= MAX_PREPARED_PER_CONNECTION) return undefined;
    const uses = (this.#uses.get(text) ?? 0) + 1;
    if (uses < PREPARE_AFTER_USES) {
      if (this.#uses.size >= MAX_COUNTED_TEXTS) this.#uses.clear();
      this.#uses.set(text, uses);
      return undefined;
    }
    this.#uses.delete(text);
    const name = `rpm_${String(this.#names.size + 1)}`;
    this.#names.set(text, name);
    return name;
  }

  // pg's query has many overloads; this forwards every one of them unchanged but for the name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with this client just below
    const query = super.query as (config: unknown, values?: unknown, callback?: unknown) => unknown;
    const send = (sent: unknown) => query.call(this, sent, values, callback);
    const text = simpleTextOf(config, values, callback);
    if (text !== undefined && BEGIN.test(text) && this.#heldBegin === undefined) {
      this.#heldBegin = text;
      return Promise.resolve(resultWithoutRows('BEGIN'));
    }
    const begin = this.#heldBegin;
    if (begin === undefined) return send(this.#withName(config, values));
    this.#heldBegin = undefined;
    if (text !== undefined) {
      // Nothing was sent: the transaction is empty, and ending it is nothing to send either.
      if (END.test(text)) return Promise.resolve(resultWithoutRows(text.trim().toUpperCase()));
      const merged = typeof config === 'string' ? `${begin}; ${text}` : { ...(config as object), text: `${begin}; ${text}` };
      // Two statements in one text answer with two results: the caller asked for the second.
      return (send(merged) as Promise<unknown>).then((results: unknown) => (Array.isArray(results) ? (results.at(-1) as unknown) : results));
    }
    // A statement with parameters cannot share a text: the BEGIN goes first, as it would have. pg
    // runs the two in order on this connection; a BEGIN fails only when the connection does, and
    // then the statement behind it fails as well.
    (query.call(this, begin) as Promise<unknown>).catch(ignore);
    return send(this.#withName(config, values));
  }

  #withName(config: unknown, values: unknown): unknown {
    if (config === null || typeof config !== 'object') return config;
    const query = config as QueryConfigLike;
    if (typeof query.submit === 'function' || typeof query.text !== 'string' || query.name !== undefined) return config;
    const parameters = Array.isArray(values) ? values : query.values;
    if (!Array.isArray(parameters) || parameters.length === 0) return config;
    const name = this.statementNameOf(query.text);
    return name === undefined ? config : { ...query, name };
  }
}

const ignore = () => undefined;

/**
 * The text of a statement sent without parameters and answered by a promise (a simple query, which
 * may hold several statements), else undefined.
 */
function simpleTextOf(config: unknown, values: unknown, callback: unknown): string | undefined {
  if (callback !== undefined || typeof values === 'function') return undefined;
  if (typeof config === 'string') return values === undefined || (Array.isArray(values) && values.length === 0) ? config : undefined;
  if (config === null || typeof config !== 'object') return undefined;
  const query = config as QueryConfigLike & { callback?: unknown };
  if (typeof query.submit === 'function' || typeof query.text !== 'string' || query.name !== undefined || query.callback !== undefined) return undefined;
  const parameters = Array.isArray(values) ? values : query.values;
  return parameters === undefined || (Array.isArray(parameters) && parameters.length === 0) ? query.text : undefined;
}
