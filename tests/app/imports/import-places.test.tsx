// The import's 'Dónde quedaron': each month a link to that account's month in the dashboard, another
// account's named by its RFC.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Places } from '../../../src/app/imports/import-dialog';

describe('the months an import filled', () => {
  it('links each month, names another account', () => {
    const html = renderToStaticMarkup(
      <Places
        onOpenMonth={undefined}
        places={[
          { rfc: 'XIQB891116QE4', month: '2025-03', count: 3, text: '3 en marzo de 2025', otherAccount: false },
          { rfc: 'EKU9003173C9', month: '2024-12', count: 1, text: '1 en diciembre de 2024', otherAccount: true },
        ]}
      />,
    );
    expect(html).toContain('Dónde quedaron');
    expect(html).toContain('href="#/home?month=2025-03&amp;rfc=XIQB891116QE4"');
    expect(html).toMatch(/>3 en marzo de 2025<\/a><\/li>/);
    expect(html).toMatch(/>1 en diciembre de 2024<\/a><span class="muted"> en tu RFC EKU9003173C9<\/span>/);
  });
});
