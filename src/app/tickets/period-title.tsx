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
    <div className={`page__title ${block}__title`}>
      <div>
        <h1>{title}</h1>
        <p className={`muted ${block}__account`}>
          {accountName} · <span className="tabular">{rfc}</span>
        </p>
      </div>
      {updating ? (
        <span className={`muted ${block}__sync`} role="status">
          <span className="spinner" aria-hidden="true" /> Actualizando…
        </span>
      ) : (
        // Its room is kept once the pull is done: on a phone it is a line of its own under the title, and
        // taking that line away would move the whole screen up (a layout shift).
        <span className="period-title__space" aria-hidden="true">
          <span className="spinner" /> Actualizando…
        </span>
      )}
    </div>
  );
}
