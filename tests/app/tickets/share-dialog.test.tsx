// Compartir's summary: the count of the selected receipts, then spending and income apart (never one
// sum of both), credit notes subtracting, and the documents that add no amount said apart.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ShareSummary } from '../../../src/app/tickets/share-dialog';
import { shareTotals } from '../../../src/domain/receipt-share';
import { receipt, ticket } from './fixtures';

const render = (tickets: ReturnType<typeof ticket>[]) =>
  renderToStaticMarkup(
    <ShareSummary count={tickets.length} totals={shareTotals(tickets)} />,
  );

describe('Compartir summary', () => {
  it('shows the spending and the income totals on their own lines', () => {
    const html = render([
      ticket({ ticket_id: 'g1', amount: '1000.00', receipt }),
      ticket({ ticket_id: 'nc', amount: '-116.00', receipt: { ...receipt, tipo: 'E' } }),
      ticket({ ticket_id: 'i1', ticket_type_id: 3, amount: '2500.50', receipt }),
    ]);
    expect(html).toContain('3 facturas seleccionadas');
    expect(html).toContain('<dt>Gastos</dt><dd>$884.00 (2 facturas)</dd>');
    expect(html).toContain('<dt>Ingresos</dt><dd>$2,500.50 (1 factura)</dd>');
    expect(html).not.toContain('3,384.50'); // the sum of both sides is never shown
  });
});
