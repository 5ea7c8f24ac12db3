// A period's heading (the dashboard's month, the year view's year): the title, the account it belongs to,
// and 'Actualizando…' while the period is pulled from the server.
export function PeriodTitle({ block, title, accountName, rfc, updating }: {
  /** The screen's CSS block: its title, account and sync classes are `${block}__…`. */
  block: 'dashboard' | 'annual';
  title: string;
  accountName: string;
  rfc: string;
  updating: boolean;
}) {
  return (
    // A grid: the title and 'Actualizando…' share the first line, the account the second. So the
    // indicator's room is on the title's line, and coming and going moves nothing.
    <div className={`page__title period-title ${block}__title`}>
      <h1>{title}</h1>
      {updating ? (
        <span className={`muted period-title__sync ${block}__sync`} role="status">
          <span className="spinner" aria-hidden="true" /> <span className="visually-hidden-narrow">Actualizando…</span>
        </span>
      ) : (
        <span className="period-title__sync period-title__sync--idle" aria-hidden="true">
          <span className="spinner" /> <span className="visually-hidden-narrow">Actualizando…</span>
        </span>
      )}
      <p className={`muted period-title__account ${block}__account`}>
        {accountName} · <span className="tabular">{rfc}</span>
      </p>
    </div>
  );
}
