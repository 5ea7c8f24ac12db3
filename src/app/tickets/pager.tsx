// 'Anterior · Página n de m · Siguiente' under a ticket list (dashboard and annual view; 10 rows a page).
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { pageCount, pageLabel } from './ticket-list-model';

export function Pager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  return (
    <nav className="pager" aria-label="Páginas">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Icon name="chevronLeft" />
        Anterior
      </Button>
      <span className="pager__label" aria-live="polite">
        {pageLabel(page, total)}
      </span>
      <Button variant="secondary" disabled={page >= pageCount(total)} onClick={() => onPage(page + 1)}>
        Siguiente
        <Icon name="chevronRight" />
      </Button>
    </nav>
  );
}
